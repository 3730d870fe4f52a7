import type { Language } from '@portal/contract';
import { label as l } from '../../lib/labels';
import { typeLabel } from './txn.labels';

/** A transaction type in words on a statement (issue 53: the monthly CSV showed the raw code). */
export const statementTypeLabel = (type: string, lang: Language): string => typeLabel(type, lang);

type L = Record<Language, string>;

/** Texts of the settlement statement and the monthly statement (PDF and CSV), in the four languages. */
export const STATEMENT_LABELS = {
  title: l('Settlement statement', '结算单', '정산 명세서', '精算明細書'),
  monthlyTitle: l('Monthly statement', '月度对账单', '월간 명세서', '月次明細書'),
  merchant: l('Merchant', '商户', '가맹점', '加盟店'),
  busLine: l('Business line', '业务线', '사업 라인', '事業ライン'),
  currency: l('Settlement currency', '结算币种', '정산 통화', '精算通貨'),
  settleDate: l('Settlement date', '结算日期', '정산일', '精算日'),
  remitDate: l('Remittance date', '汇款日期', '송금일', '送金日'),
  period: l('Period', '期间', '기간', '期間'),
  generated: l('Generated', '生成时间', '생성 시각', '作成日時'),
  totals: l('Totals', '合计', '합계', '合計'),
  item: l('Item', '项目', '항목', '項目'),
  transactions: l('Transactions', '交易明细', '거래 내역', '取引明細'),
  orderNo: l('Order number', '订单号', '주문 번호', '注文番号'),
  type: l('Type', '类型', '유형', '種別'),
  txnTime: l('Transaction time', '交易时间', '거래 시각', '取引日時'),
  brand: l('Payment brand', '支付品牌', '결제 브랜드', '決済ブランド'),
  txnAmount: l('Amount', '交易金额', '거래 금액', '取引金額'),
  txnCurrency: l('Currency', '币种', '통화', '通貨'),
  settleAmount: l('Settlement amount', '结算金额', '정산 금액', '精算金額'),
  fee: l('Fee', '手续费', '수수료', '手数料'),
  netCol: l('Net', '净额', '순액', '差引額'),
  settled: l('Settled amount', '结算金额合计', '정산 금액 합계', '精算金額合計'),
  fees: l('Fees', '手续费合计', '수수료 합계', '手数料合計'),
  reconSetAmount: l('Total settlement amount', '结算总额', '총 정산 금액', '精算総額'),
  servAmount: l('Reserve withheld', '保证金扣留', '보증금 유보', '保証金留保'),
  released: l('Reserve released', '保证金释放', '보증금 해제', '保証金解除'),
  net: l('Net of the day', '当日净额', '당일 순액', '当日差引額'),
  historyPending: l('History pending amount', '历史待付金额', '이전 미지급 금액', '前回未払額'),
  beforeFee: l('Transfer amount before fee', '划款金额（扣费前）', '수수료 전 송금액', '手数料控除前送金額'),
  tranFee: l('Transfer fee', '划款手续费', '송금 수수료', '送金手数料'),
  realTrans: l('Net transfer amount', '实际划款金额', '실 송금액', '実送金額'),
  totalPending: l('Total pending amount', '待付总额', '총 미지급 금액', '未払総額'),
  opening: l('Opening pending balance', '期初待付余额', '기초 미지급 잔액', '期首未払残高'),
  closing: l('Closing pending balance', '期末待付余额', '기말 미지급 잔액', '期末未払残高'),
  withheld: l('Reserve withheld', '保证金扣留', '보증금 유보', '保証金留保'),
  transfers: l('Transfers (before fee)', '划款（扣费前）', '송금(수수료 전)', '送金（手数料控除前）'),
  outstanding: l('Outstanding reserve at month end', '月末未释放保证金', '월말 미해제 보증금', '月末未解除保証金'),
  transferList: l('Transfers', '划款明细', '송금 내역', '送金明細'),
  zone: l('Time zone', '时区', '시간대', 'タイムゾーン'),
  platformZone: l(
    'UTC+8 (Asia/Shanghai): settlement and remittance dates are days of this zone',
    'UTC+8（Asia/Shanghai）：结算日期与汇款日期均为该时区的日期',
    'UTC+8 (Asia/Shanghai): 정산일과 송금일은 이 시간대의 날짜입니다',
    'UTC+8（Asia/Shanghai）：精算日・送金日はこのタイムゾーンの日付です',
  ),
  settledBy: l('Settled: {type}', '结算：{type}', '정산: {type}', '精算：{type}'),
} satisfies Record<string, L>;
