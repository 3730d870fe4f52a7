import { Code, WEBHOOK_TEST_EVENT, type Language, type WebhookDelivery, type WebhookDeliveryDetail, type WebhookAttemptReason } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { AppError, notFound } from '../../lib/errors';
import { t } from '../../lib/messages';
import { eventBody } from './webhook.render';
import { actorOf, endpointOf, iso, RETRY_WINDOW_MS, type Meta } from './webhook.service';

/**
 * An endpoint's delivery log (issue 31; decision 040): the test event, the log and an attempt's
 * detail, resends — within the caller's merchant scope, audited (split from webhook.service.ts).
 */

/** A `webhook.test` event for this one endpoint, sent by the job like any other. */
export async function sendTestEvent(deps: Deps, user: SessionUser, lang: Language, id: number, meta: Meta): Promise<WebhookDeliveryDetail> {
  const now = deps.clock.now();
  const deliveryId = await deps.db.tx(async (q) => {
    const e = await endpointOf(q, id, user.scope, now, true);
    if (!e.enabled) throw new AppError(Code.BAD_REQUEST, 'webhookDisabled', {}, 400);
    const { rows: ev } = await q.query<{ id: number }>('INSERT INTO webhook_event (mer_id, type, data, created_at) VALUES ($1, $2, $3, $4) RETURNING id', [
      e.merId,
      WEBHOOK_TEST_EVENT,
      JSON.stringify({ message: t(lang, 'webhookTestMessage'), endpointId: e.id }),
      now,
    ]);
    const { rows } = await q.query<{ id: number }>(
      'INSERT INTO webhook_delivery (event_id, endpoint_id, mer_id, next_attempt_at, give_up_at, created_at) VALUES ($1, $2, $3, $4, $5, $4) RETURNING id',
      [ev[0].id, e.id, e.merId, now, new Date(now.getTime() + RETRY_WINDOW_MS)],
    );
    await audit(q, { action: 'webhook.endpoint.test', ...actorOf(user, meta), merId: e.merId, target: String(id) });
    return Number(rows[0].id);
  });
  return deliveryDetail(deps, user, lang, deliveryId);
}

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  event_created_at: Date;
  created_at: Date;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status: number | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  api_version: string;
}

const SELECT_DELIVERY = `
  SELECT d.id, d.endpoint_id, v.event_id, v.type, v.mer_id, v.data, v.created_at AS event_created_at, d.created_at, d.state, d.attempts,
         d.last_status, d.last_attempt_at, d.next_attempt_at,
         (SELECT e.api_version FROM webhook_endpoint e WHERE e.id = d.endpoint_id) AS api_version
    FROM webhook_delivery d JOIN webhook_event v ON v.id = d.event_id`;

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: Number(r.id),
  endpointId: Number(r.endpoint_id),
  eventId: r.event_id,
  type: r.type,
  createdAt: iso(r.event_created_at)!,
  state: r.state,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastAttemptAt: iso(r.last_attempt_at),
  nextAttemptAt: r.state === 'pending' ? iso(r.next_attempt_at) : null,
});

/** An endpoint's deliveries, newest event first (one event's, with `eventId`). */
export async function listDeliveries(
  deps: Deps,
  user: SessionUser,
  f: { id: number; state?: string; eventId?: string; page: number; size: number },
): Promise<{ content: WebhookDelivery[]; totalElements: number }> {
  await endpointOf(deps.db, f.id, user.scope, deps.clock.now());
  const where = `d.endpoint_id = $1 AND d.mer_id = ANY($2::text[]) AND ($3::text IS NULL OR d.state = $3) AND ($4::text IS NULL OR v.event_id = $4)`;
  const params = [f.id, user.scope, f.state ?? null, f.eventId ?? null];
  const { rows } = await deps.db.query<DeliveryRow>(`${SELECT_DELIVERY} WHERE ${where} ORDER BY d.id DESC LIMIT $5 OFFSET $6`, [...params, f.size, f.page * f.size]);
  const { rows: n } = await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_delivery d JOIN webhook_event v ON v.id = d.event_id WHERE ${where}`, params);
  return { content: rows.map(toDelivery), totalElements: n[0].n };
}

const REASON_MESSAGE = {
  address: 'webhookReasonAddress',
  https: 'webhookReasonHttps',
  timeout: 'webhookReasonTimeout',
  tls: 'webhookReasonTls',
  connection: 'webhookReasonConnection',
} as const satisfies Record<WebhookAttemptReason, string>;

/** One delivery with its body and every attempt (time, status, latency, answer's first 2 KB, next retry). */
export async function deliveryDetail(deps: Deps, user: SessionUser, lang: Language, id: number): Promise<WebhookDeliveryDetail> {
  const { rows } = await deps.db.query<DeliveryRow>(`${SELECT_DELIVERY} WHERE d.id = $1 AND d.mer_id = ANY($2::text[])`, [id, user.scope]);
  if (!rows[0]) throw notFound();
  const r = rows[0];
  const { rows: attempts } = await deps.db.query<{
    id: number;
    started_at: Date;
    outcome: 'sending' | 'succeeded' | 'failed' | 'refused';
    status: number | null;
    latency_ms: number | null;
    response_excerpt: string | null;
    reason: WebhookAttemptReason | null;
    next_retry_at: Date | null;
    manual: boolean;
  }>('SELECT id, started_at, outcome, status, latency_ms, response_excerpt, reason, next_retry_at, manual FROM webhook_attempt WHERE delivery_id = $1 ORDER BY id DESC', [id]);
  return {
    ...toDelivery(r),
    body: eventBody({ event_id: r.event_id, type: r.type, mer_id: r.mer_id, data: r.data, created_at: r.event_created_at }, r.api_version),
    attemptList: attempts.map((a) => ({
      id: Number(a.id),
      at: iso(a.started_at)!,
      outcome: a.outcome,
      status: a.status,
      latencyMs: a.latency_ms,
      response: a.response_excerpt,
      // A generic reason in the caller's language; the detail (webhook_attempt.error) is for operators only.
      reason: a.reason,
      error: a.reason ? t(lang, REASON_MESSAGE[a.reason]) : null,
      nextRetryAt: iso(a.next_retry_at),
      manual: a.manual,
    })),
  };
}

/** Sends one delivery again (same event id, same body), now, with a fresh 3-day window. */
export async function resendDelivery(deps: Deps, user: SessionUser, lang: Language, id: number, meta: Meta): Promise<WebhookDeliveryDetail> {
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ endpoint_id: number; mer_id: string; event_id: string }>(
      `SELECT d.endpoint_id, d.mer_id, v.event_id FROM webhook_delivery d JOIN webhook_event v ON v.id = d.event_id
        WHERE d.id = $1 AND d.mer_id = ANY($2::text[]) FOR UPDATE OF d`,
      [id, user.scope],
    );
    if (!rows[0]) throw notFound();
    const e = await endpointOf(q, Number(rows[0].endpoint_id), user.scope, now);
    if (!e.enabled) throw new AppError(Code.BAD_REQUEST, 'webhookDisabled', {}, 400);
    await q.query(`UPDATE webhook_delivery SET state = 'pending', next_attempt_at = $2, give_up_at = $3, manual_pending = true WHERE id = $1`, [id, now, new Date(now.getTime() + RETRY_WINDOW_MS)]);
    await audit(q, { action: 'webhook.delivery.resend', ...actorOf(user, meta), merId: rows[0].mer_id, target: String(id), detail: { eventId: rows[0].event_id, endpointId: e.id } });
  });
  return deliveryDetail(deps, user, lang, id);
}

/** Sends again every failed delivery of an endpoint whose event happened at or after `since`. */
export async function resendFailed(deps: Deps, user: SessionUser, id: number, since: Date, meta: Meta): Promise<{ count: number }> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const e = await endpointOf(q, id, user.scope, now, true);
    if (!e.enabled) throw new AppError(Code.BAD_REQUEST, 'webhookDisabled', {}, 400);
    const r = await q.query(
      `UPDATE webhook_delivery d SET state = 'pending', next_attempt_at = $3, give_up_at = $4, manual_pending = true
         FROM webhook_event v
        WHERE v.id = d.event_id AND d.endpoint_id = $1 AND d.state = 'failed' AND v.created_at >= $2`,
      [id, since, now, new Date(now.getTime() + RETRY_WINDOW_MS)],
    );
    await audit(q, { action: 'webhook.delivery.resendFailed', ...actorOf(user, meta), merId: e.merId, target: String(id), detail: { since: since.toISOString(), count: r.rowCount } });
    return { count: r.rowCount };
  });
}
