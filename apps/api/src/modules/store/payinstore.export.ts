import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PayInStoreApi, Perm, brandName, exportFormatSchema, payInStoreExportQuerySchema, payInStoreFilterSchema, pblStateOf, toDecimal, type Language, type PayInStoreFilter } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { badRequest } from '../../lib/errors';
import { inputOf, routeOf } from '../../lib/endpoint-route';
import type { ExportColumn, ExportContext, ExportSource } from '../export';
import { disposition, registerExportSource, streamExport } from '../export';
import { STATE_LABELS } from '../paybylink';
import { checkPblRange } from '../paybylink';
import { countOrders, expireDue, iterateOrders, type PblDbRow } from '../paybylink';
import { pisWhere } from './payinstore.repo';
import { label as L } from '../../lib/labels';

type L = Record<Language, string>;
const COL = {
  orderNo: L('Order number', '订单号', '주문 번호', '注文番号'),
  createTime: L('Creation time', '创建时间', '생성 시간', '作成日時'),
  storeId: L('Store ID', '门店编号', '매장 ID', '店舗 ID'),
  storeName: L('Store name', '门店名称', '매장명', '店舗名'),
  merId: L('Merchant ID', '商户号', '가맹점 ID', '加盟店 ID'),
  merName: L('Merchant name', '商户名称', '가맹점명', '加盟店名'),
  currency: L('Currency', '币种', '통화', '通貨'),
  totalAmount: L('Amount', '金额', '금액', '金額'),
  goodsName: L('Goods', '商品', '상품', '商品'),
  qrType: L('QR code', '二维码', 'QR 코드', 'QR コード'),
  brand: L('Payment method', '支付方式', '결제 수단', '支払方法'),
  status: L('Status', '状态', '상태', 'ステータス'),
  paidTime: L('Paid time', '支付时间', '결제 시간', '支払日時'),
};
const QR = { dynamic: L('Dynamic', '动态码', '동적', '動的'), static: L('Static (store sign)', '静态码（门店立牌）', '정적 (매장 안내판)', '静的（店舗掲示）') };
const TITLE = L('Pay in store orders', '门店支付订单', '매장 결제 주문', '店頭決済注文');

function columns(ctx: ExportContext): ExportColumn<PblDbRow>[] {
  const { lang } = ctx;
  return [
    { key: 'orderNo', label: COL.orderNo[lang], type: 'text', width: 22, value: (r) => r.order_no },
    { key: 'createTime', label: COL.createTime[lang], type: 'time', value: (r) => r.created_at },
    { key: 'storeId', label: COL.storeId[lang], type: 'text', width: 12, value: (r) => r.store_id },
    { key: 'storeName', label: COL.storeName[lang], type: 'text', width: 24, value: (r) => r.store_name },
    { key: 'merId', label: COL.merId[lang], type: 'text', width: 17, value: (r) => r.mer_id },
    { key: 'merName', label: COL.merName[lang], type: 'text', width: 22, value: (r) => r.mer_name },
    { key: 'currency', label: COL.currency[lang], type: 'text', width: 9, value: (r) => r.order_currency },
    { key: 'totalAmount', label: COL.totalAmount[lang], type: 'money', width: 14, value: (r) => toDecimal(r.total_amount, r.order_currency) },
    { key: 'goodsName', label: COL.goodsName[lang], type: 'text', width: 22, value: (r) => r.goods_name },
    { key: 'qrType', label: COL.qrType[lang], type: 'text', width: 14, value: (r) => QR[r.created_by === null ? 'static' : 'dynamic'][lang] },
    { key: 'brand', label: COL.brand[lang], type: 'text', width: 14, value: (r) => (r.payment_brand ? brandName(r.payment_brand) : null) },
    { key: 'status', label: COL.status[lang], type: 'text', width: 16, value: (r) => STATE_LABELS[pblStateOf({ status: r.status, openStatus: r.open_status })][lang] },
    { key: 'paidTime', label: COL.paidTime[lang], type: 'time', value: (r) => r.paid_at },
  ];
}

function parse(params: unknown): PayInStoreFilter {
  const p = payInStoreFilterSchema.safeParse(params);
  if (!p.success) throw badRequest(p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  checkPblRange(p.data.beginDate, p.data.endDate);
  return p.data;
}

const source: ExportSource<PayInStoreFilter, PblDbRow> = {
  permission: Perm.payInStoreList,
  parse,
  fileName: (ctx) => TITLE[ctx.lang],
  columns,
  rows: (ctx, p) => iterateOrders(ctx.read, pisWhere(p, ctx.scope, ctx.deps.config.platformTz)),
  count: (ctx, p) => countOrders(ctx.read, pisWhere(p, ctx.scope, ctx.deps.config.platformTz)),
};

let registered = false;
/** GET /payInStore/export: the filtered in-store orders as XLSX (default) or CSV, streamed. */
export function payInStoreExportRoutes(app: FastifyInstance, deps: Deps) {
  if (!registered) {
    registered = true;
    registerExportSource('payinstore', source);
  }
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(PayInStoreApi.export),
    schema: {
      tags: ['payInStore'],
      summary: 'The filtered in-store orders as an XLSX (default) or CSV file, streamed',
      querystring: inputOf(PayInStoreApi.export)(payInStoreExportQuerySchema(exportFormatSchema)),
    },
    handler: async (req, reply) => {
      const u = userOf(req);
      const { format, ...params } = req.query;
      checkPblRange(params.beginDate, params.endDate);
      await expireDue(deps.db, deps.clock.now(), { scope: u.scope });
      const out = await streamExport(deps, {
        kind: 'payinstore',
        params,
        format,
        lang: req.lang,
        tzOffset: req.tzOffset,
        scope: u.scope,
        userId: u.id,
        meta: { ip: req.ip, userAgent: req.headers['user-agent'] },
      });
      reply.header('Content-Type', out.contentType);
      reply.header('Content-Disposition', disposition(out.fileName));
      reply.header('Cache-Control', 'no-store');
      return reply.send(out.stream);
    },
  });
}
