import type { Language } from '@portal/contract';

/**
 * Dispute reason codes per card brand (issue 48, docs/disputes.md), as data: the code, its group,
 * the name in the four languages and the evidence that helps answer it. A code not listed is shown
 * as itself with its brand's "other" group — never an error.
 *
 * Columns (tab-separated, one code a line): brand, code, group, en, zh, ko, ja.
 */
const TABLE = `
visa	10.1	fraud	EMV liability shift counterfeit fraud	EMV 责任转移伪卡欺诈	EMV 책임 전가 위조 카드 사기	EMV ライアビリティシフト偽造カード不正
visa	10.2	fraud	EMV liability shift non-counterfeit fraud	EMV 责任转移非伪卡欺诈	EMV 책임 전가 비위조 사기	EMV ライアビリティシフト非偽造不正
visa	10.3	fraud	Other fraud: card present	其他欺诈：有卡交易	기타 사기: 카드 제시 거래	その他の不正：対面取引
visa	10.4	fraud	Other fraud: card absent	其他欺诈：无卡交易	기타 사기: 비대면 거래	その他の不正：非対面取引
visa	10.5	fraud	Visa fraud monitoring program	Visa 欺诈监控计划	Visa 사기 모니터링 프로그램	Visa 不正監視プログラム
visa	11.1	authorisation	Card recovery bulletin	卡片回收公告	카드 회수 공지	カード回収リスト
visa	11.2	authorisation	Declined authorisation	授权被拒	승인 거절	オーソリ拒否
visa	11.3	authorisation	No authorisation	未经授权	승인 없음	オーソリなし
visa	12.1	processing	Late presentment	延迟提交	지연 제출	売上提出遅延
visa	12.2	processing	Incorrect transaction code	交易代码错误	잘못된 거래 코드	取引コード誤り
visa	12.3	processing	Incorrect currency	币种错误	잘못된 통화	通貨誤り
visa	12.4	processing	Incorrect account number	账号错误	잘못된 계좌 번호	口座番号誤り
visa	12.5	processing	Incorrect amount	金额错误	잘못된 금액	金額誤り
visa	12.6	processing	Duplicate processing or paid by other means	重复处理或已通过其他方式支付	중복 처리 또는 다른 수단으로 결제됨	二重処理または他の方法で支払済み
visa	12.7	processing	Invalid data	数据无效	유효하지 않은 데이터	無効なデータ
visa	13.1	consumer	Merchandise or services not received	未收到商品或服务	상품 또는 서비스 미수령	商品・サービス未着
visa	13.2	consumer	Cancelled recurring transaction	已取消的定期交易	취소된 정기 결제	解約済みの継続課金
visa	13.3	consumer	Not as described or defective	与描述不符或有缺陷	설명과 다르거나 결함 있음	説明と異なる・不良品
visa	13.4	consumer	Counterfeit merchandise	假冒商品	위조 상품	偽造品
visa	13.5	consumer	Misrepresentation	虚假陈述	허위 표시	不当表示
visa	13.6	consumer	Credit not processed	未处理退款	환불 미처리	返金未処理
visa	13.7	consumer	Cancelled merchandise or services	已取消的商品或服务	취소된 상품 또는 서비스	キャンセル済みの商品・サービス
mastercard	4808	authorisation	Authorisation-related chargeback	授权相关拒付	승인 관련 지불 거절	オーソリ関連チャージバック
mastercard	4831	processing	Transaction amount differs	交易金额不符	거래 금액 상이	取引金額の相違
mastercard	4834	processing	Point-of-interaction error	终端处理错误	단말 처리 오류	端末処理エラー
mastercard	4837	fraud	No cardholder authorisation	持卡人未授权	카드 소지자 미승인	カード会員の承認なし
mastercard	4840	fraud	Fraudulent processing of transactions	欺诈性交易处理	사기성 거래 처리	不正な取引処理
mastercard	4849	fraud	Questionable merchant activity	可疑商户活动	의심스러운 가맹점 활동	疑わしい加盟店の活動
mastercard	4853	consumer	Cardholder dispute	持卡人争议	카드 소지자 분쟁	カード会員の異議
mastercard	4855	consumer	Goods or services not provided	未提供商品或服务	상품 또는 서비스 미제공	商品・サービス未提供
mastercard	4859	consumer	Addendum, no-show or ATM dispute	附加费用、未入住或 ATM 争议	추가 요금, 노쇼 또는 ATM 분쟁	追加請求・ノーショー・ATM の異議
mastercard	4860	consumer	Credit not processed	未处理退款	환불 미처리	返金未処理
mastercard	4863	fraud	Cardholder does not recognise: potential fraud	持卡人不认可：可能欺诈	카드 소지자가 인식하지 못함: 사기 가능성	カード会員に覚えなし：不正の可能性
mastercard	4870	fraud	Chip liability shift	芯片责任转移	칩 책임 전가	IC チップのライアビリティシフト
unionpay	4501	consumer	Goods or services not received	未收到商品或服务	상품 또는 서비스 미수령	商品・サービス未着
unionpay	4502	processing	Duplicate transaction	重复交易	중복 거래	二重取引
unionpay	4507	processing	Incorrect amount	金额错误	잘못된 금액	金額誤り
unionpay	4514	consumer	Credit not processed	未处理退款	환불 미처리	返金未処理
unionpay	4562	fraud	Counterfeit card	伪卡交易	위조 카드	偽造カード
unionpay	4570	fraud	Cardholder did not authorise	持卡人未授权	카드 소지자 미승인	カード会員の承認なし
jcb	541	fraud	No cardholder authorisation	持卡人未授权	카드 소지자 미승인	カード会員の承認なし
jcb	547	fraud	Fraudulent multiple transactions	欺诈性多笔交易	사기성 다중 거래	不正な複数取引
jcb	526	processing	Duplicate processing	重复处理	중복 처리	二重処理
jcb	536	processing	Late presentment	延迟提交	지연 제출	売上提出遅延
jcb	554	consumer	Goods or services not received	未收到商品或服务	상품 또는 서비스 미수령	商品・サービス未着
jcb	580	consumer	Credit not processed	未处理退款	환불 미처리	返金未処理
amex	F24	fraud	No card member authorisation	持卡人未授权	카드 회원 미승인	カード会員の承認なし
amex	F29	fraud	Card not present	无卡交易	비대면 거래	非対面取引
amex	A08	authorisation	Authorisation approval expired	授权已过期	승인 만료	オーソリ承認期限切れ
amex	P05	processing	Incorrect charge amount	扣款金额错误	잘못된 청구 금액	請求金額誤り
amex	P08	processing	Duplicate charge	重复扣款	중복 청구	二重請求
amex	C08	consumer	Goods or services not received	未收到商品或服务	상품 또는 서비스 미수령	商品・サービス未着
amex	C02	consumer	Credit not processed	未处理退款	환불 미처리	返金未処理
amex	C31	consumer	Goods or services not as described	商品或服务与描述不符	상품 또는 서비스가 설명과 다름	説明と異なる商品・サービス
`;

export type ReasonGroup = 'fraud' | 'authorisation' | 'processing' | 'consumer' | 'other';
export type EvidenceCategory = 'receipt' | 'proof_of_delivery' | 'refund_policy' | 'correspondence' | 'other';
export const EVIDENCE_CATEGORIES: readonly EvidenceCategory[] = ['receipt', 'proof_of_delivery', 'refund_policy', 'correspondence', 'other'];

export interface ReasonCode {
  brand: string;
  code: string;
  group: ReasonGroup;
  name: Record<Language, string>;
}

export const REASON_CODES: readonly ReasonCode[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [brand, code, group, en, zh, ko, ja] = line.split('\t');
    return { brand, code, group: group as ReasonGroup, name: { en, zh, ko, ja } };
  });

const BY_KEY = new Map(REASON_CODES.map((r) => [`${r.brand}|${r.code}`, r]));

/** What helps answer each group of reasons: the categories to upload first and a sentence. */
export const EVIDENCE_HELPS: Record<ReasonGroup, { categories: EvidenceCategory[]; text: Record<Language, string> }> = {
  fraud: {
    categories: ['receipt', 'proof_of_delivery', 'correspondence'],
    text: {
      en: 'Show the card holder made the purchase: the receipt with the authorisation (3-D Secure, AVS/CVV result), the delivery to the card holder’s address, earlier undisputed purchases, messages with the buyer.',
      zh: '证明是持卡人本人购买：带授权信息（3-D Secure、AVS/CVV 结果）的收据、寄往持卡人地址的签收证明、此前无争议的购买记录、与买家的往来信息。',
      ko: '카드 소지자가 직접 구매했음을 보여 주세요: 승인 정보(3-D Secure, AVS/CVV 결과)가 있는 영수증, 카드 소지자 주소로의 배송 증빙, 이전의 분쟁 없는 구매, 구매자와의 연락 내역.',
      ja: 'カード会員本人の購入であることを示してください：承認情報（3-D セキュア、AVS/CVV 結果）付きの領収書、カード会員住所への配達記録、過去の異議のない購入、購入者とのやり取り。',
    },
  },
  authorisation: {
    categories: ['receipt', 'other'],
    text: {
      en: 'Show the purchase was authorised: the authorisation code, date and amount as approved by the issuer.',
      zh: '证明交易已获授权：发卡行批准的授权码、日期和金额。',
      ko: '거래가 승인되었음을 보여 주세요: 발급사가 승인한 승인 코드, 날짜, 금액.',
      ja: '取引が承認済みであることを示してください：イシュアが承認したオーソリコード、日付、金額。',
    },
  },
  processing: {
    categories: ['receipt', 'other'],
    text: {
      en: 'Show the transaction was processed correctly: the receipt with amount and currency, proof that a second charge was a separate purchase, the presentment date.',
      zh: '证明交易处理无误：注明金额和币种的收据、证明第二笔扣款是另一笔购买的材料、提交日期。',
      ko: '거래가 올바르게 처리되었음을 보여 주세요: 금액과 통화가 있는 영수증, 두 번째 청구가 별도의 구매라는 증빙, 제출 날짜.',
      ja: '取引が正しく処理されたことを示してください：金額と通貨の入った領収書、2 回目の請求が別の購入である証拠、売上提出日。',
    },
  },
  consumer: {
    categories: ['proof_of_delivery', 'refund_policy', 'correspondence', 'receipt'],
    text: {
      en: 'Show the buyer got what was paid for, or was refunded as the policy says: proof of delivery or use, the refund and cancellation policy the buyer accepted, messages with the buyer, any refund already made.',
      zh: '证明买家已收到所购商品或服务，或已按政策退款：签收或使用证明、买家已同意的退款和取消政策、与买家的往来信息、已完成的退款。',
      ko: '구매자가 결제한 것을 받았거나 정책대로 환불받았음을 보여 주세요: 배송 또는 사용 증빙, 구매자가 동의한 환불·취소 정책, 구매자와의 연락 내역, 이미 처리된 환불.',
      ja: '購入者が支払った商品・サービスを受け取ったこと、または規定どおり返金されたことを示してください：配達・利用の証拠、購入者が同意した返金・キャンセル規定、購入者とのやり取り、実施済みの返金。',
    },
  },
  other: {
    categories: ['receipt', 'correspondence', 'other'],
    text: {
      en: 'Send the receipt and anything that shows the purchase was genuine and delivered.',
      zh: '请提交收据以及能证明交易真实并已交付的任何材料。',
      ko: '영수증과 거래가 정상이며 제공되었음을 보여 주는 자료를 보내 주세요.',
      ja: '領収書と、取引が正当で提供済みであることを示す資料を送ってください。',
    },
  },
};

/** A reason in plain words: the listed name, or the code itself (unknown codes are never an error). */
export function reasonOf(brand: string, code: string, lang: Language) {
  const r = BY_KEY.get(`${brand.toLowerCase()}|${code}`);
  const group: ReasonGroup = r?.group ?? 'other';
  const helps = EVIDENCE_HELPS[group];
  return { code, group, known: !!r, name: r ? r.name[lang] : code, evidence: helps.categories, evidenceText: helps.text[lang] };
}
