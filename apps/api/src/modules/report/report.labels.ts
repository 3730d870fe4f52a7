import type { Language } from '@portal/contract';
import { label as l } from '../../lib/labels';

/** Names of the date ranges, used inside the range messages. */
export const RANGE_NAMES = {
  settlement: l('settlement', '结算', '정산', '精算'),
  remit: l('remittance', '划款', '송금', '送金'),
  release: l('release', '释放', '해제', '解放'),
  transfer: l('transfer', '转账', '이체', '振込'),
} as const;
export type RangeName = keyof typeof RANGE_NAMES;

/** Column headers of the report exports, in the four languages (the screens use the web locales). */
export const REPORT_LABELS = {
  txnSetDate: l('Settlement date', '结算日期', '정산일', '精算日'),
  txnDate: l('Transaction date', '交易日期', '거래일', '取引日'),
  clientid: l('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  merName: l('Merchant name', '商户名称', '가맹점명', '加盟店名'),
  acquirer: l('Acquirer', '收单机构', '매입사', 'アクワイアラ'),
  business: l('Business line', '业务线', '사업 라인', 'ビジネスライン'),
  merTxnSet: l('Settlement currency', '结算币种', '정산 통화', '精算通貨'),
  reconSetAmount: l('Settlement amount', '结算金额', '정산 금액', '精算金額'),
  historyPendingAmount: l('History pending amount', '历史待划款金额', '이전 미지급 금액', '前回保留額'),
  totalPendingAmount: l('Total pending amount', '累计待划款金额', '누적 미지급 금액', '累計保留額'),
  transAmount: l('Total settlement amount', '总结算金额', '총 정산 금액', '総精算金額'),
  totalSettlement: l('Total settlement amount', '总结算金额', '총 정산 금액', '総精算金額'),
  servAmount: l('Reserve amount', '保证金金额', '보증금 금액', '保証金額'),
  releasedAmount: l('Reserve released', '保证金释放金额', '보증금 해제 금액', '保証金解放額'),
  beforeFee: l('Transfer amount before fee', '手续费前划款金额', '수수료 전 송금액', '手数料控除前送金額'),
  tranFee: l('Transfer fee', '划款手续费', '송금 수수료', '送金手数料'),
  realTransAmount: l('Net transfer amount', '实际划款金额', '순 송금액', '純送金額'),
  tranThreshold: l('Transfer threshold', '划款起点', '송금 기준액', '送金基準額'),
  transPeriod: l('Transaction period', '划款周期', '송금 주기', '送金周期'),
  remitDate: l('Remittance date', '划款日期', '송금일', '送金日'),
  reconSearchDate: l('Period start', '周期开始日期', '기간 시작일', '期間開始日'),
  paymentBrand: l('Payment brand', '支付品牌', '결제 브랜드', '決済ブランド'),
  txnType: l('Transaction type', '交易类型', '거래 유형', '取引種別'),
  txnCount: l('Count', '笔数', '건수', '件数'),
  merTxnCur: l('Currency', '币种', '통화', '通貨'),
  merTxnAmount: l('Amount', '金额', '금액', '金額'),
  merMDRAmount: l('Converted transaction amount', '折算交易金额', '환산 거래 금액', '換算取引金額'),
  txnSetAmount: l('Settlement amount', '结算金额', '정산 금액', '精算金額'),
  txnFee: l('Merchant fee', '商户手续费', '가맹점 수수료', '加盟店手数料'),
  releaseAmount: l('Release amount', '释放金额', '해제 금액', '解放額'),
  releaseDate: l('Release date', '释放日期', '해제일', '解放日'),
  transferDate: l('Transfer date', '划款日期', '이체일', '振込日'),
  released: l('Released', '已释放', '해제됨', '解放済み'),
  yes: l('Yes', '是', '예', 'はい'),
  no: l('No', '否', '아니요', 'いいえ'),
} as const;

/** Export file titles (the file name's first part). */
export const REPORT_FILE_TITLES = {
  bill: l('Bill report', '账单报表', '정산서 보고서', '請求レポート'),
  transfer: l('Transfer report', '划款报表', '송금 보고서', '送金レポート'),
  summary: l('Daily summary by payment brand', '按支付品牌每日汇总', '결제 브랜드별 일일 요약', '決済ブランド別日次サマリー'),
  summaryOld: l('Daily summary report', '每日汇总报表', '일일 요약 보고서', '日次サマリーレポート'),
  reserve: l('Reserve release report', '保证金释放报表', '보증금 해제 보고서', '保証金解放レポート'),
} as const;

/** Transfer period of a fee schedule as people read it: D daily, W3 weekly on Wednesday, M15 monthly on the 15th. */
export function periodLabel(p: string, lang: Language): string {
  const days: Record<Language, string[]> = {
    en: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    zh: ['周一', '周二', '周三', '周四', '周五', '周六', '周日'],
    ko: ['월요일', '화요일', '수요일', '목요일', '금요일', '토요일', '일요일'],
    ja: ['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日'],
  };
  if (p === 'D') return l('Daily', '每日', '매일', '毎日')[lang];
  const n = Number(p.slice(1));
  if (p.startsWith('W')) return l(`Weekly (${days.en[n - 1]})`, `每周（${days.zh[n - 1]}）`, `매주 (${days.ko[n - 1]})`, `毎週（${days.ja[n - 1]}）`)[lang];
  if (p.startsWith('M')) return l(`Monthly (day ${n})`, `每月（${n}日）`, `매월 (${n}일)`, `毎月（${n}日）`)[lang];
  return p;
}
