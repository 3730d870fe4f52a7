import { Perm, payByLinkFilterSchema, pblStateOf, toDecimal, type Language, type PayByLinkFilter, type PblState } from '@portal/contract';
import type { ExportColumn, ExportContext, ExportSource } from '../export';
import { registerExportSource } from '../export';
import { checkPblRange } from './paybylink.range';
import { countOrders, iterateOrders, pblWhere, type PblDbRow } from './paybylink.repo';
import { invalidInput } from '../../lib/validation';
import { label as L } from '../../lib/labels';

type L = Record<Language, string>;

const COL = {
  orderNo: L('Order number', '订单号', '주문 번호', '注文番号'),
  createTime: L('Creation time', '创建时间', '생성 시간', '作成日時'),
  reconId: L('Invoice ID', '发票号', '청구서 ID', '請求書 ID'),
  merId: L('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  merName: L('Merchant name', '商户名称', '가맹점명', '加盟店名'),
  currency: L('Currency', '币种', '통화', '通貨'),
  totalAmount: L('Total amount', '总金额', '총 금액', '合計金額'),
  goodsName: L('Goods name', '商品名称', '상품명', '商品名'),
  buyerEmail: L('Buyer e-mail', '买家邮箱', '구매자 이메일', '購入者メール'),
  status: L('Status', '状态', '상태', 'ステータス'),
  expireTime: L('Link valid until', '链接有效期至', '링크 유효 기한', 'リンク有効期限'),
  paidTime: L('Paid time', '支付时间', '결제 시간', '支払日時'),
};
export const STATE_LABELS: Record<PblState, L> = {
  paid: L('Paid', '已支付', '결제 완료', '支払済み'),
  processing: L('Payment processing', '支付处理中', '결제 처리 중', '支払処理中'),
  closed: L('Closed', '已关闭', '종료됨', 'クローズ'),
  notPaid: L('Not paid', '未支付', '미결제', '未払い'),
};
const TITLE = L('Pay by link orders', '链接支付订单', '링크 결제 주문', 'リンク決済注文');

function pblColumns(ctx: ExportContext): ExportColumn<PblDbRow>[] {
  const { lang } = ctx;
  return [
    { key: 'orderNo', label: COL.orderNo[lang], type: 'text', width: 22, value: (r) => r.order_no },
    { key: 'createTime', label: COL.createTime[lang], type: 'time', value: (r) => r.created_at },
    { key: 'reconId', label: COL.reconId[lang], type: 'text', width: 18, value: (r) => r.recon_id },
    { key: 'merId', label: COL.merId[lang], type: 'text', width: 17, value: (r) => r.mer_id },
    { key: 'merName', label: COL.merName[lang], type: 'text', width: 22, value: (r) => r.mer_name },
    { key: 'currency', label: COL.currency[lang], type: 'text', width: 9, value: (r) => r.order_currency },
    { key: 'totalAmount', label: COL.totalAmount[lang], type: 'money', width: 14, value: (r) => toDecimal(r.total_amount, r.order_currency) },
    { key: 'goodsName', label: COL.goodsName[lang], type: 'text', width: 22, value: (r) => r.goods_name },
    { key: 'buyerEmail', label: COL.buyerEmail[lang], type: 'text', width: 26, value: (r) => r.buyer_email },
    { key: 'status', label: COL.status[lang], type: 'text', width: 16, value: (r) => STATE_LABELS[pblStateOf({ status: r.status, openStatus: r.open_status })][lang] },
    { key: 'expireTime', label: COL.expireTime[lang], type: 'time', value: (r) => r.expires_at },
    { key: 'paidTime', label: COL.paidTime[lang], type: 'time', value: (r) => r.paid_at },
  ];
}

function parsePblExportParams(params: unknown): PayByLinkFilter {
  const p = payByLinkFilterSchema.safeParse(params);
  if (!p.success) throw invalidInput(p.error);
  checkPblRange(p.data.beginDate, p.data.endDate);
  return p.data;
}

const pblExportSource: ExportSource<PayByLinkFilter, PblDbRow> = {
  permission: Perm.payByLinkList,
  parse: parsePblExportParams,
  fileName: (ctx) => TITLE[ctx.lang],
  columns: pblColumns,
  rows: (ctx, p) => iterateOrders(ctx.read, pblWhere(p, ctx.scope, ctx.deps.config.platformTz)),
  count: (ctx, p) => countOrders(ctx.read, pblWhere(p, ctx.scope, ctx.deps.config.platformTz)),
};

let registered = false;
/** Plugs the pay-by-link orders into the export module (streamed file or queued). */
export function registerPblExport(): void {
  if (registered) return;
  registered = true;
  registerExportSource('paybylink', pblExportSource);
}
