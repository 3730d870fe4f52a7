/** Server messages of the transactions and export modules (spread into MESSAGES). */
export const TXN_MESSAGES = {
  stepUpRequired: {
    en: 'Please verify your password again before refunding',
    zh: '退款前请重新验证密码',
    ko: '환불하기 전에 비밀번호를 다시 확인하세요',
    ja: '返金の前にパスワードを再度確認してください',
  },
  refundSuccess: { en: 'Refund successful', zh: '退款成功', ko: '환불 성공', ja: '返金に成功しました' },
  refundProcessing: { en: 'Refund submitted, processing', zh: '退款已提交，处理中', ko: '환불이 접수되어 처리 중입니다', ja: '返金を受け付けました。処理中です' },
  refundNotAllowed: {
    en: "Sorry, you can't refund this transaction",
    zh: '抱歉，该交易不能退款',
    ko: '죄송합니다. 이 거래는 환불할 수 없습니다',
    ja: '申し訳ありません。この取引は返金できません',
  },
  refundOverAmount: {
    en: 'The refund amount exceeds what can still be refunded ({max})',
    zh: '退款金额超过可退金额（{max}）',
    ko: '환불 금액이 환불 가능 금액({max})을 초과합니다',
    ja: '返金額が返金可能額（{max}）を超えています',
  },
  refundDeclined: { en: 'The refund was declined: {reason}', zh: '退款被拒绝：{reason}', ko: '환불이 거절되었습니다: {reason}', ja: '返金は拒否されました：{reason}' },
  refundKeyReused: {
    en: 'This refund request was already made with a different amount',
    zh: '该退款请求已使用不同金额提交过',
    ko: '이 환불 요청은 이미 다른 금액으로 제출되었습니다',
    ja: 'この返金リクエストは別の金額で既に送信されています',
  },
  refundAmountInvalid: {
    en: 'The amount must be greater than 0 with at most {d} decimal(s)',
    zh: '金额必须大于 0，且最多 {d} 位小数',
    ko: '금액은 0보다 커야 하며 소수점 이하 {d}자리까지 가능합니다',
    ja: '金額は 0 より大きく、小数点以下 {d} 桁までです',
  },
  queryResultNotPending: {
    en: 'This transaction is not processing',
    zh: '该交易不在处理中',
    ko: '이 거래는 처리 중이 아닙니다',
    ja: 'この取引は処理中ではありません',
  },
  uploadFileMissing: { en: 'Please choose a file', zh: '请选择文件', ko: '파일을 선택하세요', ja: 'ファイルを選択してください' },
  uploadFileType: {
    en: 'Only XLSX or CSV files can be imported',
    zh: '只能导入 XLSX 或 CSV 文件',
    ko: 'XLSX 또는 CSV 파일만 가져올 수 있습니다',
    ja: 'XLSX または CSV ファイルのみ取り込めます',
  },
  uploadFileTooLarge: {
    en: 'The size of uploaded file attachments cannot exceed 5M',
    zh: '上传文件大小不能超过 5M',
    ko: '업로드 파일 크기는 5M를 초과할 수 없습니다',
    ja: 'アップロードファイルのサイズは 5M を超えられません',
  },
  uploadRowsInvalid: {
    en: '{n} row(s) have errors; nothing was imported',
    zh: '{n} 行有错误，未导入任何数据',
    ko: '{n}개 행에 오류가 있어 아무것도 가져오지 않았습니다',
    ja: '{n} 行にエラーがあるため、何も取り込まれませんでした',
  },
  exportTooOld: {
    en: 'The export period cannot start more than three months before its end',
    zh: '导出时间不能早于结束时间三个月以上',
    ko: '내보내기 기간은 종료일로부터 3개월을 넘을 수 없습니다',
    ja: 'エクスポート期間は終了日から 3 か月以内にしてください',
  },
  exportNotReady: { en: 'The file is not ready yet', zh: '文件尚未生成', ko: '파일이 아직 준비되지 않았습니다', ja: 'ファイルはまだ準備できていません' },
} satisfies Record<string, Record<'en' | 'zh' | 'ko' | 'ja', string>>;
