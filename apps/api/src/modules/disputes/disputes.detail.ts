/** One dispute with everything its detail page shows (portal and back office). */
import { toDecimal, type Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { movementsOf, type DisputeMovement } from './disputes.lines';
import { reasonOf, type EvidenceCategory } from './reason-codes';
import { rowOf, viewOf, type DisputeView, type EvidenceView } from './disputes.view';

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
