import { assertMerchantOpen } from '../ops';
import { Code, PBL_DEFAULT_VALID_DAYS, canModifyPbl, checkPayByLinkForm, truthy, type Language, type PayByLinkAddResult, type PayByLinkForm } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import type { Queryable } from '../../db/db';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { newToken } from '../../lib/crypto';
import { formatInZone } from '../../lib/zone';
import { findAttachment } from './attachment.repo';
import { payLink } from './paybylink.mapper';
import { sendBuyerMail } from './paybylink.mail';
import { addEvent, closeOpenOrder, expireDue, findOrder, insertOrder, setOrderMetadata, updateOpenOrder, type PblDbRow } from './paybylink.repo';
import { syncProcessing } from './paybylink.sync';
import { fieldError, orderValues, trimOrNull, validationError } from './paybylink.validation';

export interface Ctx {
  lang: Language;
  linkBase: string;
  ip?: string;
  /**
   * /v1 metadata (issue 50). On create: stored as given. On update: merged into the stored one (an
   * empty value removes its key); the caller checks the merged size (at most 50 keys).
   */
  metadata?: Record<string, string>;
}

/** A metadata patch applied to stored metadata: a key with an empty value is removed (Stripe's rule). */
export function mergeMetadata(stored: Record<string, string> | null | undefined, patch: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

export const orderChanged = (data: unknown = null) => new AppError(Code.CONFLICT, 'pblOrderStatusChanged', {}, 409, data);
const DAY = 86_400_000;

/** The merchant's own currencies, default first: what an order of it may be in (ingestion accepts them). */
export async function merchantCurrencies(q: Queryable, merId: string): Promise<string[]> {
  const { rows } = await q.query<{ default_currency: string; currencies: string[] }>('SELECT default_currency, currencies FROM merchant WHERE mer_id = $1', [merId]);
  const m = rows[0];
  if (!m) return [];
  return [m.default_currency.trim(), ...m.currencies.map((c) => c.trim())].filter((c, i, a) => a.indexOf(c) === i);
}

async function attachmentIdOf(deps: Deps, user: SessionUser, key: string | undefined, lang: Language, keep?: PblDbRow): Promise<number | null> {
  const k = key?.trim();
  if (!k) return null;
  if (keep && keep.file_key === k) return keep.attachment_id;
  const a = await findAttachment(deps.db, k, user.scope);
  if (!a) throw fieldError('attachment', 'pblAttachmentUnknown', lang);
  return a.id;
}

/** POST /payByLink/add: checks the form (spec §5), stores the order with its token, e-mails the buyer when asked. */
export async function createOrder(deps: Deps, user: SessionUser, given: PayByLinkForm, ctx: Ctx): Promise<PayByLinkAddResult> {
  // Spec §3: goodsQuantity defaults to 1 — a call that leaves it out gets 1 (a blank one sent by
  // the form is still "Required", spec §5). The total must then match price × 1 + shipping.
  const form: PayByLinkForm = given.goodsQuantity === undefined ? { ...given, goodsQuantity: '1' } : given;
  // A merchant (or its group) locked by the provider's risk team takes no new payment (issue 47): no new link either.
  await assertMerchantOpen(deps.db, user.merId);
  const currencies = await merchantCurrencies(deps.db, user.merId);
  const issues = checkPayByLinkForm(form, { mode: 'create', currencies });
  if (issues.length) throw validationError(issues, ctx.lang);
  const currency = form.orderCurrency!.trim();
  const v = orderValues(form, currency);
  const attachmentId = await attachmentIdOf(deps, user, form.attachment, ctx.lang);
  const now = deps.clock.now();
  const days = form.validDays?.trim() ? Number(form.validDays) : PBL_DEFAULT_VALID_DAYS;
  const token = newToken();
  const { id, orderNo } = await deps.db.tx(async (q) => {
    const r = await insertOrder(q, {
      merId: user.merId,
      token,
      reconId: form.reconId!.trim(),
      goodsName: form.goodsName!.trim(),
      currency,
      ...v,
      remarks: trimOrNull(form.remarks),
      buyerEmail: trimOrNull(form.buyerEmail),
      attachmentId,
      expiresAt: new Date(now.getTime() + days * DAY),
      createdBy: user.id,
      now,
      datePrefix: formatInZone(now, deps.config.platformTz).slice(0, 10).replaceAll('-', ''),
      metadata: ctx.metadata,
    });
    await addEvent(q, r.id, 'created', user.username, now, { totalAmount: form.totalAmount!.trim(), currency, validDays: days });
    await audit(q, { action: 'paybylink.create', userId: user.id, username: user.username, merId: user.merId, target: r.orderNo, ip: ctx.ip });
    return r;
  });
  const emailStatus = v.sendEmail ? await sendBuyerMail(deps, id, { lang: ctx.lang, linkBase: ctx.linkBase, actor: user.username }) : 'none';
  return { id, orderNo, payByLink: payLink(ctx.linkBase, token), emailStatus };
}

/** Reads an order of the caller's scope after bringing its state up to date (expiry, a pending payment). */
export async function loadOrder(deps: Deps, by: { id?: number; orderNo?: string }, scope: string[]): Promise<PblDbRow> {
  const o = await findOrder(deps.db, by, scope);
  if (!o) throw notFound();
  const changed = (await expireDue(deps.db, deps.clock.now(), { id: o.id })) > 0 || (await syncProcessing(deps, o));
  return changed ? (await findOrder(deps.db, { id: o.id }))! : o;
}

const stateOf = (o: PblDbRow) => ({ status: o.status, openStatus: o.open_status, prodCategory: o.prod_category });

/**
 * POST /payByLink/updateOrder: amounts, quantity, shipping fee, attachment, e-mail option and
 * validity; reconId, currency, e-mail, remarks and goods name stay as stored (spec §5). Only while
 * open and unpaid; otherwise 'Order status has changed, operation failed'.
 */
export async function updateOrder(deps: Deps, user: SessionUser, form: PayByLinkForm, ctx: Ctx): Promise<PblDbRow> {
  const id = Number(form.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw fieldError('id', 'pblRequired', ctx.lang);
  const o = await loadOrder(deps, { id }, user.scope);
  if (!canModifyPbl(stateOf(o))) throw orderChanged({ openStatus: o.open_status, status: o.status });
  // Nor does it change an open link's amount or validity while locked (closing one stays possible).
  await assertMerchantOpen(deps.db, o.mer_id);
  const merged: PayByLinkForm = {
    ...form,
    reconId: o.recon_id,
    orderCurrency: o.order_currency,
    buyerEmail: o.buyer_email ?? '',
    remarks: o.remarks ?? '',
    goodsName: o.goods_name,
    attachment: form.attachment ?? o.file_key ?? '',
    sendEmailChecked: form.sendEmailChecked ?? String(o.send_email),
  };
  const issues = checkPayByLinkForm(merged, { mode: 'update' });
  if (issues.length) throw validationError(issues, ctx.lang);
  const v = orderValues(merged, o.order_currency);
  const attachmentId = await attachmentIdOf(deps, user, merged.attachment, ctx.lang, o);
  const now = deps.clock.now();
  const expiresAt = form.validDays?.trim() ? new Date(now.getTime() + Number(form.validDays) * DAY) : o.expires_at;
  await deps.db.tx(async (q) => {
    const ok = await updateOpenOrder(q, id, { ...v, attachmentId, expiresAt, now, metadata: ctx.metadata ? mergeMetadata(o.metadata, ctx.metadata) : undefined });
    if (!ok) throw orderChanged();
    const changes: Record<string, unknown> = {};
    if (v.totalAmount !== o.total_amount) changes.totalAmount = merged.totalAmount!.trim();
    if (v.goodsQuantity !== o.goods_quantity) changes.goodsQuantity = v.goodsQuantity;
    if (attachmentId !== o.attachment_id) changes.attachment = true;
    if (expiresAt.getTime() !== new Date(o.expires_at).getTime()) changes.validDays = Number(form.validDays);
    await addEvent(q, id, 'updated', user.username, now, changes);
    await audit(q, { action: 'paybylink.update', userId: user.id, username: user.username, merId: o.mer_id, target: o.order_no, ip: ctx.ip });
  });
  if (truthy(merged.sendEmailChecked)) await sendBuyerMail(deps, id, { lang: ctx.lang, linkBase: ctx.linkBase, actor: user.username });
  return (await findOrder(deps.db, { id }))!;
}

/**
 * GET /payByLink/closeOrder/{id}: '00' closed; '01' when the order was no longer open (paid,
 * processing, closed — or a payment won the race). One conditional UPDATE decides.
 */
export async function closeOrder(deps: Deps, user: SessionUser, id: number, ip?: string): Promise<'00' | '01'> {
  const o = await loadOrder(deps, { id }, user.scope);
  if (o.prod_category !== 'paybylink') return '01';
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    if (!(await closeOpenOrder(q, id, now))) return '01' as const;
    await addEvent(q, id, 'closed', user.username, now);
    await audit(q, { action: 'paybylink.close', userId: user.id, username: user.username, merId: o.mer_id, target: o.order_no, ip });
    return '00' as const;
  });
}

/**
 * /v1 (issue 50): only an order's metadata changes (merged: an empty value removes its key), in any
 * state — it is the merchant's own note, not a term of the order. The caller checks the merged size.
 */
export async function updateOrderMetadata(deps: Deps, user: SessionUser, id: number, patch: Record<string, string>, ctx: Ctx): Promise<PblDbRow> {
  const o = await loadOrder(deps, { id }, user.scope);
  const metadata = mergeMetadata(o.metadata, patch);
  await deps.db.tx(async (q) => {
    await setOrderMetadata(q, id, metadata, deps.clock.now());
    await audit(q, { action: 'paybylink.update', userId: user.id, username: user.username, merId: o.mer_id, target: o.order_no, ip: ctx.ip, detail: { metadata: Object.keys(patch) } });
  });
  return (await findOrder(deps.db, { id }))!;
}
