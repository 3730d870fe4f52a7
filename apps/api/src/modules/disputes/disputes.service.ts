import { createHash } from 'node:crypto';
import { Code, toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Deps, SessionUser } from '../../plugins/context';
import { acquirerOf, type AcquirerAnswer } from '../acquirer';
import { daysBetween, platformDate } from '../payments';
import { movementsOf, type DisputeMovement } from './disputes.lines';
import { DISPUTE_KINDS, DISPUTE_STATES, OPEN_STATES, type DisputeKind, type DisputeState } from './disputes.machine';
import { normalise, transition, type DisputeRow } from './disputes.money';
import { EVIDENCE_CATEGORIES, reasonOf, type EvidenceCategory } from './reason-codes';

/** Evidence limits (the anchors' order of size): per file, per dispute; the statement's length. */
export const EVIDENCE_MAX_BYTES = 4_718_592; // 4.5 MiB
export const EVIDENCE_MAX_FILES = 10;
export const STATEMENT_MAX = 5000;

export interface DisputeFilter {
  state?: DisputeState[];
  kind?: DisputeKind[];
  reasonCode?: string;
  brand?: string;
  merId?: string;
  amountMin?: number;
  amountMax?: number;
  /** Deadline on or before this day (the viewer's zone). */
  deadlineBefore?: string;
  /** Opened between (platform dates). */
  beginDate?: string;
  endDate?: string;
  page?: number;
  size?: number;
}

export interface DisputeView {
  id: number;
  gwDisputeId: string;
  merId: string;
  merName: string;
  kind: DisputeKind;
  state: DisputeState;
  brand: string;
  reasonCode: string;
  reason: string;
  reasonGroup: string;
  amount: string;
  currency: string;
  debitAmount: string;
  refundedBefore: string;
  deadline: string;
  /** Whole days from today to the deadline's day, in the viewer's zone (negative: passed). */
  daysLeft: number;
  openedAt: string;
  closedAt: string | null;
  sendState: string | null;
  purchaseId: number;
  purchaseGwTransId: string;
  purchaseOrderNo: string;
}

const SELECT = `SELECT d.*, m.name AS mer_name, k.gw_trans_id AS p_gw, p.order_no AS p_order
  FROM dispute d JOIN merchant m ON m.mer_id = d.mer_id JOIN txn_key k ON k.id = d.purchase_id
  JOIN txn p ON p.id = d.purchase_id AND p.txn_time = k.txn_time`;

type Joined = DisputeRow & { mer_name: string; p_gw: string; p_order: string };

/** Whole calendar days from today to the deadline's day, both in zone `tz` (DST-safe: dates, not hours). */
export const daysLeftOf = (now: Date, deadline: Date, tz: string): number => daysBetween(platformDate(now, tz), platformDate(deadline, tz));

export function viewOf(r: Joined, lang: Language, tz: string, now: Date): DisputeView {
  const d = normalise(r);
  const reason = reasonOf(d.brand, d.reason_code, lang);
  return {
    id: d.id,
    gwDisputeId: d.gw_dispute_id,
    merId: d.mer_id,
    merName: r.mer_name,
    kind: d.kind,
    state: d.state,
    brand: d.brand,
    reasonCode: d.reason_code,
    reason: reason.name,
    reasonGroup: reason.group,
    amount: toDecimal(d.amount, d.currency),
    currency: d.currency,
    debitAmount: toDecimal(d.debit_amount, d.currency),
    refundedBefore: toDecimal(d.refunded_before, d.currency),
    deadline: new Date(d.deadline).toISOString(),
    daysLeft: daysLeftOf(now, new Date(d.deadline), tz),
    openedAt: new Date(d.opened_at).toISOString(),
    closedAt: d.closed_at ? new Date(d.closed_at).toISOString() : null,
    sendState: d.send_state,
    purchaseId: d.purchase_id,
    purchaseGwTransId: r.p_gw,
    purchaseOrderNo: r.p_order,
  };
}

/** Who acts: a portal user, or an API key (its creator, its scope). */
export type Who = Pick<SessionUser, 'id' | 'username' | 'scope' | 'timeZone'>;

export const zoneOf = (deps: Deps, user?: Pick<SessionUser, 'timeZone'> | null): string => user?.timeZone || deps.config.platformTz;

function where(f: DisputeFilter, scope: string[], tz: string): { sql: string; params: unknown[] } {
  const params: unknown[] = [scope];
  const c = ['d.mer_id = ANY($1::text[])'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    c.push(sql.replace('?', `$${params.length}`));
  };
  if (f.merId) add('d.mer_id = ?', f.merId);
  if (f.state?.length) add('d.state = ANY(?::text[])', f.state);
  if (f.kind?.length) add('d.kind = ANY(?::text[])', f.kind);
  if (f.reasonCode) add('d.reason_code = ?', f.reasonCode);
  if (f.brand) add('d.brand = ?', f.brand.toLowerCase());
  if (f.amountMin !== undefined) add('d.amount >= ?', f.amountMin);
  if (f.amountMax !== undefined) add('d.amount <= ?', f.amountMax);
  if (f.deadlineBefore) add(`d.deadline < ((?::date + 1)::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.deadlineBefore);
  if (f.beginDate) add(`d.opened_at >= (?::date::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.beginDate);
  if (f.endDate) add(`d.opened_at < ((?::date + 1)::timestamp AT TIME ZONE '${tz.replace(/'/g, '')}')`, f.endDate);
  return { sql: c.join(' AND '), params };
}

/** The inbox: the caller's merchants' disputes, open ones first, by deadline (soonest first). */
export async function listDisputes(deps: Deps, scope: string[], f: DisputeFilter, lang: Language, tz: string) {
  if (!scope.length) return { content: [] as DisputeView[], totalElements: 0 };
  const w = where(f, scope, tz);
  const size = Math.min(Math.max(f.size ?? 20, 1), 100);
  const page = Math.max(f.page ?? 1, 1);
  const q = deps.db.read ?? deps.db;
  const [rows, n] = await Promise.all([
    q.query<Joined>(
      `${SELECT} WHERE ${w.sql.replaceAll('d.', 'd.')}
        ORDER BY (d.state IN ('needs_response', 'under_review')) DESC, d.deadline, d.id LIMIT ${size} OFFSET ${(page - 1) * size}`,
      w.params,
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM dispute d WHERE ${w.sql}`, w.params),
  ]);
  const now = deps.clock.now();
  return { content: rows.rows.map((r) => viewOf(r, lang, tz, now)), totalElements: n.rows[0].n };
}

/** Keyset page for /v1: by id descending after `cursor`. */
export async function pageDisputes(deps: Deps, scope: string[], o: { cursor?: number; limit: number; state?: DisputeState }, tz: string) {
  const params: unknown[] = [scope, o.cursor ?? null, o.limit + 1, o.state ?? null];
  const { rows } = await deps.db.query<Joined>(
    `${SELECT} WHERE d.mer_id = ANY($1::text[]) AND ($2::bigint IS NULL OR d.id < $2) AND ($4::text IS NULL OR d.state = $4)
      ORDER BY d.id DESC LIMIT $3`,
    params,
  );
  const now = deps.clock.now();
  const more = rows.length > o.limit;
  const page = rows.slice(0, o.limit).map((r) => viewOf(r, 'en', tz, now));
  return { data: page, hasMore: more, nextCursor: more ? String(page[page.length - 1].id) : null };
}

/** Counts per state of the caller's merchants' disputes (the dashboard), plus those due within 7 days. */
export async function stateCounts(deps: Deps, scope: string[]): Promise<Record<DisputeState, number> & { dueSoon: number }> {
  const out = Object.fromEntries(DISPUTE_STATES.map((s) => [s, 0])) as Record<DisputeState, number>;
  if (!scope.length) return { ...out, dueSoon: 0 };
  const { rows } = await deps.db.query<{ state: DisputeState; n: number; soon: number }>(
    `SELECT state, count(*)::int AS n, count(*) FILTER (WHERE state = 'needs_response' AND deadline < $2::timestamptz + interval '7 days')::int AS soon
       FROM dispute WHERE mer_id = ANY($1::text[]) GROUP BY state`,
    [scope, deps.clock.now()],
  );
  let dueSoon = 0;
  for (const r of rows) {
    out[r.state] = r.n;
    dueSoon += r.soon;
  }
  return { ...out, dueSoon };
}

async function rowOf(q: Queryable, id: number, scope: string[], lock = false): Promise<Joined> {
  if (lock) await q.query('SELECT 1 FROM dispute WHERE id = $1 AND mer_id = ANY($2::text[]) FOR UPDATE', [id, scope]);
  const { rows } = await q.query<Joined>(`${SELECT} WHERE d.id = $1 AND d.mer_id = ANY($2::text[])`, [id, scope]);
  if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
  return rows[0];
}

export interface EvidenceView {
  id: number;
  category: EvidenceCategory;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
  uploadedAt: string;
  submitted: boolean;
}

export interface DisputeDetail extends DisputeView {
  reasonKnown: boolean;
  evidenceHelps: EvidenceCategory[];
  evidenceText: string;
  statement: string | null;
  submittedAt: string | null;
  acceptedAt: string | null;
  outcomeBy: string | null;
  canRespond: boolean;
  purchase: { id: number; gwTransId: string; orderNo: string; amount: string; currency: string; time: string; returnAmount: string; disputedAmount: string; brand: string | null; channel: string };
  refunds: { id: number; gwTransId: string; orderNo: string; amount: string; currency: string; gwResponse: string | null; time: string }[];
  evidence: EvidenceView[];
  timeline: { at: string; action: string; by: string | null; detail: Record<string, unknown> }[];
  settlement: (Omit<DisputeMovement, 'signedAmount'> & { amount: string })[];
}

/** One dispute of the caller's merchants (another merchant's answers as absent), with everything the detail shows. */
export async function disputeDetail(deps: Deps, scope: string[], id: number, lang: Language, tz: string): Promise<DisputeDetail> {
  const q = deps.db;
  const r = await rowOf(q, id, scope);
  const now = deps.clock.now();
  const v = viewOf(r, lang, tz, now);
  const reason = reasonOf(r.brand, r.reason_code, lang);
  const [p, refunds, ev, tl, mv] = await Promise.all([
    q.query<{ amount: string; currency: string; txn_time: Date; return_amount: string; disputed_amount: string; payment_brand: string | null; payment_schema: string }>(
      'SELECT amount, currency::text AS currency, txn_time, return_amount, disputed_amount, payment_brand, payment_schema FROM txn WHERE id = $1',
      [v.purchaseId],
    ),
    q.query<{ id: string; gw_trans_id: string; order_no: string; amount: string; currency: string; gw_response: string | null; txn_time: Date }>(
      `SELECT id, gw_trans_id, order_no, amount, currency::text AS currency, gw_response, txn_time FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD' ORDER BY txn_time, id`,
      [v.purchaseId],
    ),
    evidenceOf(q, id),
    q.query<{ at: Date; action: string; username: string | null; detail: Record<string, unknown> | null }>(
      `SELECT at, action, username, detail FROM audit_log WHERE target = $1 AND action LIKE 'dispute.%' ORDER BY at, id`,
      [String(id)],
    ),
    movementsOf(q, id),
  ]);
  const pr = p.rows[0];
  const cur = pr.currency.trim();
  return {
    ...v,
    reasonKnown: reason.known,
    evidenceHelps: reason.evidence,
    evidenceText: reason.evidenceText,
    statement: r.statement,
    submittedAt: r.submitted_at ? new Date(r.submitted_at).toISOString() : null,
    acceptedAt: r.accepted_at ? new Date(r.accepted_at).toISOString() : null,
    outcomeBy: r.outcome_by,
    canRespond: r.state === 'needs_response' && new Date(r.deadline).getTime() > now.getTime(),
    purchase: {
      id: v.purchaseId,
      gwTransId: v.purchaseGwTransId,
      orderNo: v.purchaseOrderNo,
      amount: toDecimal(Number(pr.amount), cur),
      currency: cur,
      time: new Date(pr.txn_time).toISOString(),
      returnAmount: toDecimal(Number(pr.return_amount), cur),
      disputedAmount: toDecimal(Number(pr.disputed_amount), cur),
      brand: pr.payment_brand,
      channel: pr.payment_schema,
    },
    refunds: refunds.rows.map((x) => ({
      id: Number(x.id),
      gwTransId: x.gw_trans_id,
      orderNo: x.order_no,
      amount: toDecimal(Number(x.amount), x.currency.trim()),
      currency: x.currency.trim(),
      gwResponse: x.gw_response,
      time: new Date(x.txn_time).toISOString(),
    })),
    evidence: ev,
    timeline: tl.rows.map((x) => ({ at: new Date(x.at).toISOString(), action: x.action, by: x.username, detail: x.detail ?? {} })),
    settlement: mv.map(({ signedAmount, ...m }) => ({ ...m, amount: toDecimal(signedAmount, m.setCur) })),
  };
}

async function evidenceOf(q: Queryable, id: number): Promise<EvidenceView[]> {
  const { rows } = await q.query<{ id: string; category: EvidenceCategory; file_name: string; mime: string; size: number; sha256: string; uploaded_at: Date; submitted: boolean }>(
    'SELECT id, category, file_name, mime, size, sha256, uploaded_at, submitted FROM dispute_evidence WHERE dispute_id = $1 ORDER BY id',
    [id],
  );
  return rows.map((e) => ({
    id: Number(e.id),
    category: e.category,
    fileName: e.file_name,
    mime: e.mime,
    size: e.size,
    sha256: e.sha256,
    uploadedAt: new Date(e.uploaded_at).toISOString(),
    submitted: e.submitted,
  }));
}

/** What a file really is, from its first bytes: PDF, PNG or JPEG — or null. */
export function evidenceMime(buf: Buffer): 'application/pdf' | 'image/png' | 'image/jpeg' | null {
  if (buf.length >= 5 && buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (buf.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => buf[i] === b)) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  return null;
}

function assertAnswerable(r: DisputeRow, now: Date): void {
  if (r.state !== 'needs_response') throw new AppError(Code.CONFLICT, 'disputeNotOpen', {}, 409);
  if (new Date(r.deadline).getTime() <= now.getTime()) throw new AppError(Code.CONFLICT, 'disputeDeadlinePassed', {}, 409);
}

export interface Meta {
  ip?: string | null;
  userAgent?: string | null;
}

/** Throws not-found unless dispute `id` is one of the scope's (before an upload is read). */
export async function assertDisputeVisible(deps: Deps, scope: string[], id: number): Promise<void> {
  const { rows } = await deps.db.query('SELECT 1 FROM dispute WHERE id = $1 AND mer_id = ANY($2::text[])', [id, scope]);
  if (!rows.length) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
}

/** Adds an evidence file (draft until submitted): checked by content, size and count. */
export async function addEvidence(deps: Deps, user: Who, id: number, f: { category: string; fileName: string; data: Buffer }, meta: Meta = {}): Promise<EvidenceView> {
  if (!EVIDENCE_CATEGORIES.includes(f.category as EvidenceCategory)) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'category' }, 400, { field: 'category' });
  if (f.data.length > EVIDENCE_MAX_BYTES) throw new AppError(Code.BAD_REQUEST, 'disputeFileTooLarge', { max: '4.5' }, 400, { field: 'file' });
  const mime = evidenceMime(f.data);
  if (!mime) throw new AppError(Code.BAD_REQUEST, 'disputeFileType', {}, 400, { field: 'file' });
  const name = f.fileName.replace(/[\\/\u0000-\u001f]/g, '_').slice(0, 200) || 'evidence';
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    assertAnswerable(normalise(r), now);
    const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM dispute_evidence WHERE dispute_id = $1', [id]);
    if (n[0].n >= EVIDENCE_MAX_FILES) throw new AppError(Code.BAD_REQUEST, 'disputeTooManyFiles', { max: EVIDENCE_MAX_FILES }, 400, { field: 'file' });
    const sha = createHash('sha256').update(f.data).digest('hex');
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO dispute_evidence (dispute_id, category, file_name, mime, size, sha256, content, uploaded_by, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [id, f.category, name, mime, f.data.length, sha, f.data, user.id, now],
    );
    await audit(q, {
      action: 'dispute.evidence_added',
      userId: user.id,
      username: user.username,
      merId: r.mer_id,
      target: String(id),
      detail: { file: name, category: f.category, size: f.data.length, sha256: sha },
      ...meta,
    });
    return { id: Number(rows[0].id), category: f.category as EvidenceCategory, fileName: name, mime, size: f.data.length, sha256: sha, uploadedAt: now.toISOString(), submitted: false };
  });
}

/** Removes a draft evidence file; submitted evidence is immutable. */
export async function removeEvidence(deps: Deps, user: Who, id: number, evidenceId: number, meta: Meta = {}): Promise<void> {
  await deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    const { rows } = await q.query<{ submitted: boolean; file_name: string }>('SELECT submitted, file_name FROM dispute_evidence WHERE id = $1 AND dispute_id = $2', [evidenceId, id]);
    if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
    if (rows[0].submitted) throw new AppError(Code.CONFLICT, 'disputeEvidenceLocked', {}, 409);
    assertAnswerable(normalise(r), deps.clock.now());
    await q.query('DELETE FROM dispute_evidence WHERE id = $1 AND NOT submitted', [evidenceId]);
    await audit(q, { action: 'dispute.evidence_removed', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { file: rows[0].file_name }, ...meta });
  });
}

/** An evidence file's content (download), audited. */
export async function evidenceFile(deps: Deps, user: Pick<SessionUser, 'id' | 'username' | 'scope'>, id: number, evidenceId: number) {
  return deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope);
    const { rows } = await q.query<{ file_name: string; mime: string; content: Buffer }>('SELECT file_name, mime, content FROM dispute_evidence WHERE id = $1 AND dispute_id = $2', [evidenceId, id]);
    if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
    await audit(q, { action: 'dispute.evidence_downloaded', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { file: rows[0].file_name } });
    return rows[0];
  });
}

/** Saves the written statement as a draft. */
export async function saveStatement(deps: Deps, user: Who, id: number, statement: string, meta: Meta = {}): Promise<void> {
  if (statement.length > STATEMENT_MAX) throw new AppError(Code.BAD_REQUEST, 'disputeStatementTooLong', { max: STATEMENT_MAX }, 400, { field: 'statement' });
  await deps.db.tx(async (q) => {
    const r = await rowOf(q, id, user.scope, true);
    assertAnswerable(normalise(r), deps.clock.now());
    await q.query('UPDATE dispute SET statement = $2, updated_at = $3 WHERE id = $1', [id, statement, deps.clock.now()]);
    await audit(q, { action: 'dispute.draft_saved', userId: user.id, username: user.username, merId: r.mer_id, target: String(id), detail: { length: statement.length }, ...meta });
  });
}

/**
 * Submits the answer once: the evidence becomes immutable, the dispute goes under review and shows
 * "sending" until the gateway confirms; the request to the gateway is recorded in the same
 * transaction and sent after commit (then by the job, with the same idempotency key).
 */
export async function submitDispute(deps: Deps, user: Who, id: number, meta: Meta = {}) {
  return answer(deps, user, id, 'submit', meta);
}

/** Accepts the dispute (the merchant gives in): no money moves beyond the debit already made. */
export async function acceptDispute(deps: Deps, user: Who, id: number, meta: Meta = {}) {
  return answer(deps, user, id, 'accept', meta);
}

async function answer(deps: Deps, user: Who, id: number, kind: 'submit' | 'accept', meta: Meta) {
  const now = deps.clock.now();
  const opId = await deps.db.tx(async (q) => {
    const r = normalise(await rowOf(q, id, user.scope, true));
    assertAnswerable(r, now);
    const ev = await q.query<{ category: string; file_name: string; mime: string; sha256: string }>(
      'SELECT category, file_name, mime, sha256 FROM dispute_evidence WHERE dispute_id = $1 ORDER BY id',
      [id],
    );
    if (kind === 'submit' && !ev.rows.length && !r.statement?.trim()) throw new AppError(Code.BAD_REQUEST, 'disputeNoEvidence', {}, 400);
    await transition(q, r, kind === 'submit' ? 'under_review' : 'accepted', 'merchant', { platformTz: deps.config.platformTz, now });
    await q.query(`UPDATE dispute SET send_state = 'sending', submitted_at = CASE WHEN $2 = 'submit' THEN $3::timestamptz ELSE submitted_at END, submitted_by = $4 WHERE id = $1`, [
      id,
      kind,
      now,
      user.id,
    ]);
    if (kind === 'submit') await q.query('UPDATE dispute_evidence SET submitted = true WHERE dispute_id = $1', [id]);
    const request = {
      kind,
      merchantId: r.mer_id,
      gwDisputeId: r.gw_dispute_id,
      statement: kind === 'submit' ? r.statement : null,
      evidence: ev.rows.map((e) => ({ category: e.category, fileName: e.file_name, mime: e.mime, sha256: e.sha256 })),
    };
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO dispute_operation (op_key, dispute_id, kind, acquirer, request, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
      [`DSP-${r.gw_dispute_id}-${kind}`, id, kind, acquirerOf(deps).name, JSON.stringify(request), now],
    );
    await audit(q, {
      action: kind === 'submit' ? 'dispute.submitted' : 'dispute.accepted',
      userId: user.id,
      username: user.username,
      merId: r.mer_id,
      target: String(id),
      detail: { files: ev.rows.length, statement: (r.statement ?? '').length },
      ...meta,
    });
    return Number(rows[0].id);
  });
  await sendDisputeOperation(deps, opId);
  return disputeDetail(deps, user.scope, id, 'en', zoneOf(deps, user)).then((d) => ({ state: d.state, sendState: d.sendState }));
}

/**
 * Sends one recorded answer to the gateway (never inside a transaction): confirmed → 'sent';
 * no answer → asked again later by the job with the same key; refused → 'failed'.
 */
export async function sendDisputeOperation(deps: Deps, opId: number): Promise<AcquirerAnswer | null> {
  const { rows } = await deps.db.query<{ op_key: string; dispute_id: string; kind: 'submit' | 'accept'; request: Record<string, unknown>; state: string; attempts: number }>(
    'SELECT op_key, dispute_id, kind, request, state, attempts FROM dispute_operation WHERE id = $1',
    [opId],
  );
  const op = rows[0];
  if (!op || op.state !== 'pending') return null;
  const files =
    op.kind === 'submit'
      ? (
          await deps.db.query<{ category: string; file_name: string; mime: string; sha256: string; content: Buffer }>(
            'SELECT category, file_name, mime, sha256, content FROM dispute_evidence WHERE dispute_id = $1 AND submitted ORDER BY id',
            [op.dispute_id],
          )
        ).rows
      : [];
  const req = op.request as { merchantId: string; gwDisputeId: string; statement?: string | null };
  const ans = await acquirerOf(deps).dispute({
    kind: op.kind,
    idempotencyKey: op.op_key,
    merchantId: req.merchantId,
    gwDisputeId: req.gwDisputeId,
    statement: req.statement ?? null,
    evidence: files.map((f) => ({ category: f.category, fileName: f.file_name, mime: f.mime, sha256: f.sha256, content: Buffer.from(f.content).toString('base64') })),
  });
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    if (ans.kind === 'final') {
      const okd = ans.gwResponse === '00';
      await q.query(`UPDATE dispute_operation SET state = $2, attempts = attempts + 1, settled_at = $3, last_error = $4 WHERE id = $1 AND state = 'pending'`, [
        opId,
        okd ? 'confirmed' : 'failed',
        now,
        okd ? null : ans.respMsg,
      ]);
      await q.query('UPDATE dispute SET send_state = $2 WHERE id = $1', [op.dispute_id, okd ? 'sent' : 'failed']);
      await audit(q, {
        action: okd ? 'dispute.sent' : 'dispute.send_failed',
        username: `acquirer:${acquirerOf(deps).name}`,
        target: String(op.dispute_id),
        detail: { kind: op.kind, gwResponse: ans.gwResponse, respMsg: ans.respMsg },
      });
    } else {
      const backoff = Math.min(3_600_000, 30_000 * 2 ** Math.min(op.attempts, 7));
      await q.query(`UPDATE dispute_operation SET attempts = attempts + 1, next_attempt_at = $2, last_error = $3 WHERE id = $1 AND state = 'pending'`, [
        opId,
        new Date(now.getTime() + backoff),
        ans.kind === 'unknown' ? ans.error : ans.kind,
      ]);
    }
  });
  return ans;
}

/** The job: answers not confirmed yet are sent again (same key) when due. */
export async function resendDueOperations(deps: Deps, limit = 50): Promise<number> {
  const { rows } = await deps.db.query<{ id: string }>(`SELECT id FROM dispute_operation WHERE state = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2`, [
    deps.clock.now(),
    limit,
  ]);
  for (const r of rows) await sendDisputeOperation(deps, Number(r.id));
  return rows.length;
}

/** The job: disputes whose deadline passed unanswered expire (lost; no money moves beyond the debit). */
export async function expireOverdue(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<{ id: string }>(`SELECT id FROM dispute WHERE state = 'needs_response' AND deadline <= $1 ORDER BY id LIMIT 500`, [now]);
  for (const r of rows) {
    await deps.db.tx(async (q) => {
      const { rows: d } = await q.query<DisputeRow>(`SELECT * FROM dispute WHERE id = $1 AND state = 'needs_response' AND deadline <= $2 FOR UPDATE`, [r.id, now]);
      if (!d[0]) return;
      await transition(q, normalise(d[0]), 'expired', 'clock', { platformTz: deps.config.platformTz, now }, 'clock');
      await audit(q, { action: 'dispute.expired', username: 'system', merId: d[0].mer_id, target: String(r.id), detail: { deadline: d[0].deadline } });
    });
  }
  return rows.length;
}

/** Back office: the outcome a gateway reported by e-mail (won / lost), entered by a risk operator. */
export async function enterOutcome(deps: Deps, operator: { id: number; username: string }, id: number, outcome: 'won' | 'lost' | 'under_review', note: string | null) {
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<DisputeRow>('SELECT * FROM dispute WHERE id = $1 FOR UPDATE', [id]);
    if (!rows[0]) throw new AppError(Code.NOT_FOUND, 'disputeNotFound', {}, 404);
    const d = normalise(rows[0]);
    await transition(q, d, outcome, 'gateway', { platformTz: deps.config.platformTz, now }, `operator:${operator.username}`);
    await audit(q, {
      action: `dispute.${outcome}`,
      operatorId: operator.id,
      username: `operator:${operator.username}`,
      merId: d.mer_id,
      target: String(id),
      detail: { from: d.state, to: outcome, note },
    });
  });
}

/** Back office: one dispute of any merchant (its merchant found here, not in the route); absent → 404 disputeNotFound. */
export async function opsDisputeDetail(deps: Deps, id: number, lang: Language): Promise<DisputeDetail> {
  const { rows } = await deps.db.query<{ mer_id: string }>('SELECT mer_id FROM dispute WHERE id = $1', [id]);
  return disputeDetail(
    deps,
    rows.map((x) => x.mer_id),
    id,
    lang,
    deps.config.platformTz,
  );
}

/** Back office: every merchant's disputes (provider-wide), same filters. */
export async function listAllDisputes(deps: Deps, f: DisputeFilter, lang: Language) {
  const { rows } = await deps.db.query<{ mer_id: string }>('SELECT DISTINCT mer_id FROM dispute');
  return listDisputes(
    deps,
    rows.map((r) => r.mer_id),
    f,
    lang,
    deps.config.platformTz,
  );
}

export const isKind = (s: string): s is DisputeKind => (DISPUTE_KINDS as readonly string[]).includes(s);
export const OPEN = OPEN_STATES;
