import type { Language } from '@portal/contract';
import { label as l } from '../../lib/labels';

type L = Record<Language, string>;

/** Columns of the logistics import (the template's header row is in the user's language). */
export const LOGISTICS_COLUMNS = {
  orderNo: l('Order number', '订单号', '주문 번호', '注文番号'),
  merId: l('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  shipmentNo: l('Shipment number', '运单号', '운송장 번호', '送り状番号'),
  company: l('Logistics company', '物流公司', '물류 회사', '物流会社'),
  shipDate: l('Shipping date', '发货日期', '발송일', '発送日'),
  status: l('Status', '状态', '상태', 'ステータス'),
};
export type LogisticsKey = keyof typeof LOGISTICS_COLUMNS;

/** Columns of a statement for manual reconciliation (manual blend). */
export const STATEMENT_COLUMNS = {
  orderNo: l('Order number', '订单号', '주문 번호', '注文番号'),
  merId: l('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  amount: l('Amount', '金额', '금액', '金額'),
  currency: l('Currency', '币种', '통화', '通貨'),
};

/** Reasons a row of an upload is refused, with {params}. */
export const ROW_REASONS = {
  required: l('{field} is required', '{field}不能为空', '{field}은(는) 필수입니다', '{field}は必須です'),
  tooLong: l('{field} is longer than {max} characters', '{field}超过 {max} 个字符', '{field}이(가) {max}자를 넘습니다', '{field}が {max} 文字を超えています'),
  badDate: l('{field} must be a date YYYY-MM-DD', '{field}必须是 YYYY-MM-DD 格式的日期', '{field}은(는) YYYY-MM-DD 형식의 날짜여야 합니다', '{field}は YYYY-MM-DD 形式の日付にしてください'),
  badStatus: l('Status must be one of {list}', '状态必须是 {list} 之一', '상태는 {list} 중 하나여야 합니다', 'ステータスは {list} のいずれかにしてください'),
  orderNotFound: l('Order {value} not found', '订单 {value} 不存在', '주문 {value}을(를) 찾을 수 없습니다', '注文 {value} が見つかりません'),
  orderAmbiguous: l(
    'Order {value} exists for several merchants: give the merchant ID',
    '订单 {value} 存在于多个商户，请填写商户号',
    '주문 {value}이(가) 여러 가맹점에 있습니다. 가맹점 ID를 입력하세요',
    '注文 {value} は複数の加盟店にあります。加盟店 ID を入力してください',
  ),
  duplicate: l('Order {value} already appears in row {row}', '订单 {value} 已在第 {row} 行出现', '주문 {value}은(는) 이미 {row}행에 있습니다', '注文 {value} は {row} 行目にもあります'),
  missingColumn: l('Column {field} is missing from the header row', '表头缺少列 {field}', '머리글 행에 {field} 열이 없습니다', 'ヘッダー行に {field} 列がありません'),
  noRows: l('The file holds no data rows', '文件没有数据行', '파일에 데이터 행이 없습니다', 'ファイルにデータ行がありません'),
  tooManyRows: l('The file holds more than {max} rows', '文件超过 {max} 行', '파일이 {max}행을 초과합니다', 'ファイルが {max} 行を超えています'),
  badAmount: l('{field} is not a valid amount in {currency}', '{field}不是有效的 {currency} 金额', '{field}은(는) 유효한 {currency} 금액이 아닙니다', '{field}は有効な {currency} 金額ではありません'),
  badCurrency: l('Unknown currency {value}', '未知币种 {value}', '알 수 없는 통화 {value}', '不明な通貨 {value}'),
  notSettled: l('Transaction not settled yet', '交易尚未结算', '거래가 아직 정산되지 않았습니다', '取引はまだ精算されていません'),
  amountDiffers: l('Amount differs', '金额不一致', '금액이 다릅니다', '金額が一致しません'),
  currencyDiffers: l('Currency differs', '币种不一致', '통화가 다릅니다', '通貨が一致しません'),
  notInPortal: l('Not found among the transactions', '交易记录中不存在', '거래 내역에 없습니다', '取引に存在しません'),
  notInStatement: l('Settled but not on the statement', '已结算但对账单中不存在', '정산되었으나 명세서에 없습니다', '精算済みだが明細にありません'),
};

export const STATUS_LABELS: Record<string, L> = {
  SHIPPED: l('Shipped', '已发货', '발송됨', '発送済み'),
  IN_TRANSIT: l('In transit', '运输中', '배송 중', '配送中'),
  DELIVERED: l('Delivered', '已签收', '배송 완료', '配達済み'),
  RETURNED: l('Returned', '已退回', '반송됨', '返送'),
  CANCELLED: l('Cancelled', '已取消', '취소됨', 'キャンセル'),
};

export function reason(lang: Language, key: keyof typeof ROW_REASONS, params: Record<string, string | number> = {}): string {
  return ROW_REASONS[key][lang].replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}
