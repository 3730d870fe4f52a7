import { assertMerchantOpen } from '../ops';
import {
  Code,
  STORE_ID_RE,
  PIS_VALID_MINUTES,
  checkPayInStoreForm,
  toDecimal,
  toMinor,
  type Language,
  type PayInStoreAdd,
  type PayInStoreAddResult,
  type PayInStoreRow,
  type PayMethod,
  type PisIssue,
  type Store,
} from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { newToken } from '../../lib/crypto';
import { t, type MessageKey } from '../../lib/messages';
import { formatInZone } from '../../lib/zone';
import { payLink } from '../paybylink';
import { addEvent, type PblDbRow } from '../paybylink';
import { loadOrder } from '../paybylink';
import { findStore, findStoreByToken, type StoreDbRow } from './store.repo';
import { storeCurrencies, storeEnabled, storeMethods } from './store.rules';
import { insertInStoreOrder } from './payinstore.repo';

export const notEnabled = () => new AppError(Code.FUNCTION_NOT_ENABLED, 'pisNotEnabled', {}, 200);

const RULE_KEY: Record<string, MessageKey> = {
  required: 'pblRequired',
  greaterThanZero: 'pblGreaterThanZero',
  decimals: 'pblDecimals',
  goodsNameTips: 'pblGoodsNameTips',
  currencyNotEnabled: 'pblCurrencyNotEnabled',
  tooLong: 'pblTooLong',
  amountTooLarge: 'pblAmountTooLarge',
  storeRequired: 'pisStoreRequired',
  controlChars: 'pisControlChars',
};

/** Code 400; msg = the first problem; data.errors = every problem by field (as the pay-by-link form). */
function formError(issues: PisIssue[], lang: Language): AppError {
  const key = (i: PisIssue) => RULE_KEY[i.rule] ?? 'pblRequired';
  const errors = issues.map((i) => ({ field: i.field, rule: i.rule, message: t(lang, key(i), i.params ?? {}) }));
  return new AppError(Code.BAD_REQUEST, key(issues[0]), issues[0].params ?? {}, 400, { field: issues[0].field, errors });
}

export function toStore(s: StoreDbRow, linkBase: string): Store {
  const enabled = storeEnabled(s);
  const methods = storeCurrencies(s)
    .flatMap((c) => storeMethods(s, c))
    .filter((m, i, a) => a.findIndex((x) => x.code === m.code) === i);
  return {
    storeId: s.store_id,
    storeName: s.name,
    merId: s.mer_id,
    merName: s.mer_name,
    address: s.address,
    brands: s.brands,
    methods,
    currencies: storeCurrencies(s),
    enabled,
    staticLink: enabled ? `${linkBase}/pay/store/${s.static_token}` : null,
    cashiers: s.cashiers,
  };
}

/** A store of the caller's scope; another merchant's (or an unknown) id answers 404. */
export async function storeInScope(deps: Deps, storeId: string, scope: string[]): Promise<StoreDbRow> {
  const s = STORE_ID_RE.test(storeId) ? await findStore(deps.db, storeId, scope) : null;
  if (!s) throw notFound();
  return s;
}

/** The logos under the QR: the store's methods in `currency` (every currency of the store when none). */
export function logoList(s: StoreDbRow, currency?: string): PayMethod[] {
  const cur = currency ? [currency] : storeCurrencies(s);
  return cur.flatMap((c) => storeMethods(s, c)).filter((m, i, a) => a.findIndex((x) => x.code === m.code) === i);
}

async function create(
  deps: Deps,
  s: StoreDbRow,
  form: PayInStoreAdd,
  goodsName: string,
  createdBy: SessionUser | null,
  lang: Language,
  linkBase: string,
  ip?: string,
  metadata?: Record<string, string>,
): Promise<PayInStoreAddResult> {
  // A merchant (or its group) locked by the provider's risk team takes no new order (issue 47).
  await assertMerchantOpen(deps.db, s.mer_id);
  if (!storeEnabled(s)) throw notEnabled();
  const issues = checkPayInStoreForm({ ...form, storeId: s.store_id, goodsName }, { currencies: storeCurrencies(s) });
  if (issues.length) throw formError(issues, lang);
  const currency = form.orderCurrency!.trim();
  const now = deps.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + PIS_VALID_MINUTES * 60_000);
  const r = await deps.db.tx(async (q) => {
    const o = await insertInStoreOrder(q, {
      merId: s.mer_id,
      storeId: s.store_id,
      token,
      currency,
      totalAmount: toMinor(form.totalAmount!.trim(), currency),
      goodsName: goodsName.trim(),
      expiresAt,
      createdBy: createdBy?.id ?? null,
      now,
      datePrefix: formatInZone(now, deps.config.platformTz).slice(0, 10).replaceAll('-', ''),
      metadata,
    });
    await addEvent(q, o.id, 'created', createdBy?.username ?? 'buyer', now, { totalAmount: form.totalAmount!.trim(), currency, storeId: s.store_id, qr: createdBy ? 'dynamic' : 'static' });
    await audit(q, {
      action: 'payinstore.create',
      userId: createdBy?.id ?? null,
      username: createdBy?.username ?? null,
      merId: s.mer_id,
      target: o.orderNo,
      ip,
      detail: { storeId: s.store_id, amount: form.totalAmount!.trim(), currency },
    });
    return o;
  });
  return { id: r.id, orderNo: r.orderNo, link: payLink(linkBase, token), expireTime: formatInZone(expiresAt, deps.config.platformTz) };
}

/**
 * POST /payInStore/add: an order of one store of the caller's scope, paid by the buyer through
 * the dynamic QR (the hosted checkout link) within 30 minutes. A store that can take no method
 * answers 'You have not enabled this function, please contact sales'.
 */
export async function createInStoreOrder(
  deps: Deps,
  user: SessionUser,
  form: PayInStoreAdd,
  ctx: { lang: Language; linkBase: string; ip?: string; metadata?: Record<string, string> },
): Promise<PayInStoreAddResult> {
  const storeId = form.storeId?.trim() ?? '';
  if (!storeId) throw formError([{ field: 'storeId', rule: 'storeRequired' }], ctx.lang);
  const s = await storeInScope(deps, storeId, user.scope);
  return create(deps, s, form, form.goodsName ?? '', user, ctx.lang, ctx.linkBase, ctx.ip, ctx.metadata);
}

/** The store's static QR: the buyer enters the amount; an order is made for it and paid like a dynamic one. */
export async function createStaticOrder(
  deps: Deps,
  token: string,
  form: { orderCurrency: string; totalAmount: string },
  ctx: { lang: Language; linkBase: string; ip?: string },
): Promise<PayInStoreAddResult> {
  const s = await findStoreByToken(deps.db, token);
  if (!s) throw notFound();
  return create(deps, s, form, t('en', 'pisInStoreGoods'), null, ctx.lang, ctx.linkBase, ctx.ip);
}

/** An in-store order of the caller's scope, brought up to date; a pay-by-link order (or another merchant's) answers 404. */
export async function loadInStoreOrder(deps: Deps, by: { id?: number; orderNo?: string }, scope: string[]): Promise<PblDbRow> {
  const o = await loadOrder(deps, by, scope);
  if (o.prod_category !== 'payinstore') throw notFound();
  return o;
}

export function toPisRow(o: PblDbRow, tz: string): PayInStoreRow {
  return {
    id: o.id,
    orderno: o.order_no,
    createTime: formatInZone(o.created_at, tz),
    storeId: o.store_id ?? '',
    storeName: o.store_name ?? '',
    merId: o.mer_id,
    merName: o.mer_name,
    orderCurrency: o.order_currency,
    totalAmount: toDecimal(o.total_amount, o.order_currency),
    goodsName: o.goods_name,
    status: o.status,
    openStatus: o.open_status,
    qrType: o.created_by === null ? 'static' : 'dynamic',
    paymentBrand: o.payment_brand,
  };
}
