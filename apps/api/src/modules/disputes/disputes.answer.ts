/** The answer sent to the gateway (submit, accept) and what the clock and the back office decide. */
import { Code } from '@portal/contract';
import { audit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Deps } from '../../plugins/context';
import { acquirerOf, type AcquirerAnswer } from '../acquirer';
import { normalise, transition, type DisputeRow } from './disputes.money';
import { disputeDetail } from './disputes.detail';
import { assertAnswerable, rowOf, zoneOf, type Meta, type Who } from './disputes.view';

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
