import type { Language } from '@portal/contract';

type Msg = Record<Language, string>;

/** Pay-by-link and hosted-checkout messages (spec §5, §8), in the four languages. */
export const PBL_MESSAGES = {
  pblRequired: { en: 'Required', zh: '必填', ko: '필수 항목입니다', ja: '必須項目です' },
  pblGreaterThanZero: { en: 'The value should be greater than 0', zh: '数值必须大于 0', ko: '값은 0보다 커야 합니다', ja: '0 より大きい値を入力してください' },
  pblNotLessThanOne: { en: 'Please enter a value not less than 1', zh: '请输入不小于 1 的数值', ko: '1 이상의 값을 입력하세요', ja: '1 以上の値を入力してください' },
  pblPositiveInteger: { en: 'Please enter a positive integer', zh: '请输入正整数', ko: '양의 정수를 입력하세요', ja: '正の整数を入力してください' },
  pblNotNegative: { en: 'Please enter a value not less than 0', zh: '请输入不小于 0 的数值', ko: '0 이상의 값을 입력하세요', ja: '0 以上の値を入力してください' },
  pblDecimals: {
    en: '{currency} allows at most {n} decimal {n:place|places}',
    zh: '{currency} 最多允许 {n} 位小数',
    ko: '{currency}는 소수점 이하 {n}자리까지 허용됩니다',
    ja: '{currency} は小数点以下 {n} 桁までです',
  },
  pblInvalidEmail: { en: 'Please enter a valid e-mail address', zh: '请输入正确的邮箱地址', ko: '올바른 이메일 주소를 입력하세요', ja: '正しいメールアドレスを入力してください' },
  pblInputEmailTips: {
    en: 'Please enter the buyer e-mail before choosing to send an e-mail',
    zh: '请先填写买家邮箱再勾选发送邮件',
    ko: '이메일 보내기를 선택하기 전에 구매자 이메일을 입력하세요',
    ja: 'メール送信を選ぶ前に購入者のメールアドレスを入力してください',
  },
  pblGoodsNameTips: { en: 'Please enter the goods name', zh: '请输入商品名称', ko: '상품명을 입력하세요', ja: '商品名を入力してください' },
  pblAttachmentTips: { en: 'Please upload the attachment', zh: '请上传附件', ko: '첨부 파일을 업로드하세요', ja: '添付ファイルをアップロードしてください' },
  pblCurrencyNotEnabled: {
    en: 'This currency is not enabled for the merchant',
    zh: '该商户未开通此币种',
    ko: '가맹점에 사용 설정되지 않은 통화입니다',
    ja: 'この加盟店では利用できない通貨です',
  },
  pblTooLong: { en: 'At most {n} characters', zh: '最多 {n} 个字符', ko: '최대 {n}자까지 입력할 수 있습니다', ja: '{n} 文字以内で入力してください' },
  pblTotalMismatch: {
    en: 'The total must equal unit price × quantity + shipping fee: {expected} {currency}',
    zh: '订单总额须等于 单价 × 数量 + 运费：{expected} {currency}',
    ko: '총액은 단가 × 수량 + 배송비와 같아야 합니다: {expected} {currency}',
    ja: '合計金額は 単価 × 数量 + 送料 と一致する必要があります：{expected} {currency}',
  },
  pblAmountTooLarge: { en: 'The amount is too large', zh: '金额过大', ko: '금액이 너무 큽니다', ja: '金額が大きすぎます' },
  pblValidDays: { en: 'Validity must be 1 to {n} days', zh: '有效期须为 1 至 {n} 天', ko: '유효 기간은 1~{n}일이어야 합니다', ja: '有効期間は 1～{n} 日です' },
  pblFileTooLarge: {
    en: 'The size of uploaded file attachments cannot exceed 5M',
    zh: '上传的附件大小不能超过 5M',
    ko: '업로드한 첨부 파일 크기는 5M를 초과할 수 없습니다',
    ja: 'アップロードする添付ファイルは 5M 以下にしてください',
  },
  pblFileType: {
    en: 'Only xlsx, xls, csv, pdf, png and jpg files can be uploaded',
    zh: '仅支持上传 xlsx、xls、csv、pdf、png、jpg 文件',
    ko: 'xlsx, xls, csv, pdf, png, jpg 파일만 업로드할 수 있습니다',
    ja: 'アップロードできるのは xlsx・xls・csv・pdf・png・jpg ファイルのみです',
  },
  pblFileContent: {
    en: 'The file content does not match its type ({type})',
    zh: '文件内容与文件类型（{type}）不符',
    ko: '파일 내용이 파일 형식({type})과 일치하지 않습니다',
    ja: 'ファイルの内容が種類（{type}）と一致しません',
  },
  pblUploadError: {
    en: 'Upload failed, please choose a file',
    zh: '上传失败，请选择文件',
    ko: '업로드에 실패했습니다. 파일을 선택하세요',
    ja: 'アップロードに失敗しました。ファイルを選択してください',
  },
  pblAttachmentUnknown: {
    en: 'The attachment does not exist, please upload it again',
    zh: '附件不存在，请重新上传',
    ko: '첨부 파일이 없습니다. 다시 업로드하세요',
    ja: '添付ファイルが存在しません。再度アップロードしてください',
  },
  pblOrderStatusChanged: {
    en: 'Order status has changed, operation failed',
    zh: '订单状态已变更，操作失败',
    ko: '주문 상태가 변경되어 작업에 실패했습니다',
    ja: '注文のステータスが変更されたため、操作に失敗しました',
  },
  pblRangeTooLong: {
    en: 'The selected time range cannot exceed three months',
    zh: '所选时间范围不能超过三个月',
    ko: '선택한 기간은 3개월을 초과할 수 없습니다',
    ja: '選択できる期間は 3 か月以内です',
  },
  pblLinkExpired: { en: 'This payment link has expired', zh: '该支付链接已过期', ko: '이 결제 링크는 만료되었습니다', ja: 'この支払いリンクは有効期限が切れています' },
  pblMethodUnavailable: {
    en: 'This payment method is not available for this order',
    zh: '该订单不支持此支付方式',
    ko: '이 주문에서 사용할 수 없는 결제 수단입니다',
    ja: 'この注文ではこの支払い方法を利用できません',
  },
  pblCardNumber: { en: 'Please enter a valid card number', zh: '请输入有效的卡号', ko: '올바른 카드 번호를 입력하세요', ja: '正しいカード番号を入力してください' },
  // The buyer e-mail
  pblMailSubject: {
    en: 'Payment request from {merchant}: {currency} {amount}',
    zh: '{merchant} 的付款请求：{currency} {amount}',
    ko: '{merchant}의 결제 요청: {currency} {amount}',
    ja: '{merchant} からの支払いリクエスト：{currency} {amount}',
  },
  pblMailBody: {
    en: 'Hello,\n\n{merchant} asks you to pay {currency} {amount} for "{goods}" (invoice {invoice}, order {orderNo}).\n\nPay securely here:\n{link}\n\nThe link is valid until {expires} ({zone}).{attachmentLine}\n\nIf you have a question about this payment, contact {contact}.',
    zh: '您好：\n\n{merchant} 请您为"{goods}"支付 {currency} {amount}（发票号 {invoice}，订单号 {orderNo}）。\n\n请通过以下安全链接付款：\n{link}\n\n链接有效期至 {expires}（{zone}）。{attachmentLine}\n\n如对本次付款有疑问，请联系 {contact}。',
    ko: '안녕하세요.\n\n{merchant}에서 "{goods}"에 대해 {currency} {amount} 결제를 요청했습니다(청구서 {invoice}, 주문 {orderNo}).\n\n아래 안전한 링크에서 결제하세요:\n{link}\n\n링크는 {expires}({zone})까지 유효합니다.{attachmentLine}\n\n결제 관련 문의는 {contact}(으)로 연락하세요.',
    ja: 'こんにちは。\n\n{merchant} より「{goods}」の代金 {currency} {amount} のお支払いのお願いです（請求書 {invoice}、注文 {orderNo}）。\n\n以下の安全なリンクからお支払いください：\n{link}\n\nリンクの有効期限は {expires}（{zone}）です。{attachmentLine}\n\nお支払いに関するお問い合わせは {contact} までご連絡ください。',
  },
  pblMailAttachmentLine: {
    en: '\nThe bill is attached: {file}.',
    zh: '\n账单见附件：{file}。',
    ko: '\n청구서를 첨부했습니다: {file}.',
    ja: '\n請求書を添付しました：{file}。',
  },
  pblMailPayButton: { en: 'Pay now', zh: '立即付款', ko: '지금 결제', ja: '今すぐ支払う' },
} satisfies Record<string, Msg>;
