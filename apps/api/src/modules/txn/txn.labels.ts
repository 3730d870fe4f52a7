import type { Language, ResultState, SettleState } from '@portal/contract';
import { label as l } from '../../lib/labels';

type L = Record<Language, string>;

/** Labels and values of the transaction exports, in the four languages. */
export const COLUMN_LABELS = {
  orderNo: l('Order number', '订单号', '주문 번호', '注文番号'),
  txnTime: l('Transaction time', '交易时间', '거래 시간', '取引日時'),
  result: l('Order result', '订单结果', '주문 결과', '注文結果'),
  merId: l('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  merName: l('Merchant name', '商户名称', '가맹점명', '加盟店名'),
  originOrderNo: l('Original order number', '原订单号', '원 주문 번호', '元注文番号'),
  type: l('Transaction type', '交易类型', '거래 유형', '取引種別'),
  amount: l('Amount', '金额', '금액', '金額'),
  currency: l('Currency', '币种', '통화', '通貨'),
  returnAmount: l('Return amount', '已退款金额', '환불 금액', '返金額'),
  brand: l('Payment brand', '支付品牌', '결제 브랜드', '決済ブランド'),
  channel: l('Payment channel', '支付渠道', '결제 채널', '決済チャネル'),
  settleFlag: l('Settle flag', '结算状态', '정산 상태', '精算状態'),
  settleDate: l('Settlement date', '结算日期', '정산일', '精算日'),
  settleCurrency: l('Settlement currency', '结算币种', '정산 통화', '精算通貨'),
  settleAmount: l('Settlement amount', '结算金额', '정산 금액', '精算金額'),
  settleFee: l('Merchant fee', '商户手续费', '가맹점 수수료', '加盟店手数料'),
  settleNet: l('Net amount', '净额', '순액', '純額'),
} as const;

export const RESULT_LABELS: Record<ResultState, L> = {
  S: l('Success', '成功', '성공', '成功'),
  P: l('Processing', '处理中', '처리 중', '処理中'),
  F: l('Failed', '失败', '실패', '失敗'),
};

export const SETTLE_LABELS: Record<Exclude<SettleState, ''>, L> = {
  N: l('Not settled', '未结算', '미정산', '未精算'),
  W: l('To be transferred', '待划款', '송금 대기', '送金待ち'),
  T: l('Transferred', '已划款', '송금 완료', '送金済み'),
};

export const TYPE_LABELS: Record<string, L> = {
  PURC: l('Purchase', '消费', '구매', '購入'),
  REFD: l('Refund', '退款', '환불', '返金'),
  VOID: l('Void', '撤销', '취소', '取消'),
  MANENTD: l('Manual adjustment', '手工调账', '수동 조정', '手動調整'),
  PAUT: l('Pre-authorisation', '预授权', '사전 승인', '事前承認'),
  DISPUTE: l('Dispute', '争议扣款', '분쟁', 'チャージバック'),
  DECL: l('Declined', '拒绝', '거절', '拒否'),
  FREEZE: l('Freeze', '冻结', '동결', '凍結'),
  UNFREEZE: l('Unfreeze', '解冻', '동결 해제', '凍結解除'),
  PROFIT_INCOME: l('Profit income', '分润收入', '수익 배분 수입', '収益分配収入'),
  PROFIT_OUTGO: l('Profit outgo', '分润支出', '수익 배분 지출', '収益分配支出'),
  FEE_COLLECTION: l('Fee collection', '费用扣收', '수수료 징수', '手数料徴収'),
  // Issue 48.
  DISPUTE_REVERSAL: l('Dispute won (credit)', '争议胜诉退回', '분쟁 승소 환입', 'チャージバック勝訴返金'),
  DISPUTE_FEE: l('Dispute fee', '争议处理费', '분쟁 수수료', 'チャージバック手数料'),
};

export const FILE_TITLES = {
  txn: l('Transactions', '交易明细', '거래 내역', '取引明細'),
  settle: l('Settlement transactions', '结算明细', '정산 거래 내역', '精算取引明細'),
  logisticsTemplate: l('Logistics import template', '物流信息导入模板', '물류 정보 가져오기 템플릿', '物流情報取込テンプレート'),
} as const;

export const typeLabel = (type: string, lang: Language) => TYPE_LABELS[type]?.[lang] ?? type;
