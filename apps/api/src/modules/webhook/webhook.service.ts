import { isIP } from 'node:net';
import {
  Code,
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_TEST_EVENT,
  type Language,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEndpointUpdate,
  type WebhookSecret,
  type WebhookAttemptReason,
} from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { AppError, notFound } from '../../lib/errors';
import { t } from '../../lib/messages';
import { encryptSecret, encryptionKey } from '../gateway';
import { isPrivateAddress } from './webhook.net';
import { newSecretKeyId, newWebhookSecret } from './webhook.sign';
import { eventBody, WEBHOOK_DEFAULT_VERSION } from './webhook.render';

/**
 * Webhook endpoints and their delivery log (issue 31; decision 040). Every call is within the
 * caller's merchant scope (another merchant's endpoint answers as absent) and every change is
 * audited. Secrets are stored encrypted (PROVIDER_KEY_ENCRYPTION_KEY, as gateway keys are) and
 * returned once, at creation and rotation. Nothing here talks to the network: deliveries are
 * sent by the job (webhook.deliver.ts) after commit.
 */

export interface Meta {
  ip?: string;
  userAgent?: string;
}

/** How long the secret before a rotation keeps signing. */
const PREVIOUS_SECRET_MS = 24 * 3_600_000;
/** A delivery is retried for this long after its event (or its resend). */
const RETRY_WINDOW_MS = 3 * 24 * 3_600_000;

interface EndpointRow {
  id: number;
  mer_id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: 'user' | 'failing' | null;
  disabled_at: Date | null;
  prev_secret_until: Date | null;
  created_at: Date;
  created_by_name: string | null;
  pending: number;
  failed: number;
  signature_scheme: 'stripe' | 'standard';
  api_version: string;
}

/** An endpoint, and the API version its events are sent in (pinned at its creation; /v1 shows it). */
export type VersionedEndpoint = WebhookEndpoint & { apiVersion: string };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const toEndpoint = (r: EndpointRow, now: Date): VersionedEndpoint => ({
  id: Number(r.id),
  merId: r.mer_id,
  url: r.url,
  description: r.description,
  events: r.events,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: iso(r.disabled_at),
  previousSecretUntil: r.prev_secret_until && new Date(r.prev_secret_until) > now ? iso(r.prev_secret_until) : null,
  createdAt: iso(r.created_at)!,
  createdBy: r.created_by_name,
  pending: Number(r.pending),
  failed: Number(r.failed),
  signatureScheme: r.signature_scheme,
  apiVersion: r.api_version,
});

const SELECT_ENDPOINT = `
  SELECT e.id, e.mer_id, e.url, e.description, e.events, e.enabled, e.disabled_reason, e.disabled_at, e.prev_secret_until, e.created_at, e.signature_scheme, e.api_version,
         u.username AS created_by_name,
         (SELECT count(*) FROM webhook_delivery d WHERE d.endpoint_id = e.id AND d.state = 'pending')::int AS pending,
         (SELECT count(*) FROM webhook_delivery d WHERE d.endpoint_id = e.id AND d.state = 'failed')::int AS failed
    FROM webhook_endpoint e LEFT JOIN app_user u ON u.id = e.created_by`;

export async function listEndpoints(deps: Deps, scope: string[]): Promise<VersionedEndpoint[]> {
  const { rows } = await deps.db.query<EndpointRow>(`${SELECT_ENDPOINT} WHERE e.mer_id = ANY($1::text[]) ORDER BY e.mer_id, e.id`, [scope]);
  return rows.map((r) => toEndpoint(r, deps.clock.now()));
}

async function endpointOf(q: Queryable, id: number, scope: string[], now: Date, lock = false): Promise<VersionedEndpoint> {
  if (lock) await q.query('SELECT 1 FROM webhook_endpoint WHERE id = $1 AND mer_id = ANY($2::text[]) FOR UPDATE', [id, scope]);
  const { rows } = await q.query<EndpointRow>(`${SELECT_ENDPOINT} WHERE e.id = $1 AND e.mer_id = ANY($2::text[])`, [id, scope]);
  if (!rows[0]) throw notFound();
  return toEndpoint(rows[0], now);
}

export const getEndpoint = (deps: Deps, user: SessionUser, id: number) => endpointOf(deps.db, id, user.scope, deps.clock.now());

/** https in production; never a literal private address or a local name there (the resolved address is checked at every attempt). */
function checkUrl(deps: Pick<Deps, 'config'>, raw: string): URL {
  const url = new URL(raw);
  if (deps.config.env !== 'production') return url;
  if (url.protocol !== 'https:') throw new AppError(Code.BAD_REQUEST, 'webhookHttpsOnly', {}, 400);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if ((isIP(host) && isPrivateAddress(host)) || host === 'localhost' || host.endsWith('.localhost')) throw new AppError(Code.BAD_REQUEST, 'webhookPrivateAddress', {}, 400);
  return url;
}

function sealSecret(deps: Deps, scheme: 'stripe' | 'standard' = 'stripe') {
  const secret = newWebhookSecret(scheme);
  const keyId = newSecretKeyId();
  return { secret, keyId, enc: encryptSecret(encryptionKey(deps.config), secret, keyId) };
}

const actorOf = (user: SessionUser, meta: Meta) => ({ userId: user.id, username: user.username, ip: meta.ip ?? null, userAgent: meta.userAgent ?? null });

export async function createEndpoint(
  deps: Deps,
  user: SessionUser,
  lang: Language,
  input: Omit<WebhookEndpointCreate, 'signatureScheme'> & { signatureScheme?: WebhookEndpointCreate['signatureScheme']; apiVersion?: string },
  meta: Meta,
): Promise<WebhookSecret & { endpoint: VersionedEndpoint }> {
  if (!user.scope.includes(input.merId)) throw new AppError(Code.BAD_REQUEST, 'webhookForeignMerchant', { merId: input.merId }, 400);
  checkUrl(deps, input.url);
  const scheme = input.signatureScheme ?? 'stripe';
  const s = sealSecret(deps, scheme);
  const now = deps.clock.now();
  const id = await deps.db.tx(async (q) => {
    // The merchant row is the lock that makes the count and the insert one step (two at once: one waits).
    await q.query('SELECT 1 FROM merchant WHERE mer_id = $1 FOR UPDATE', [input.merId]);
    const { rows: n } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoint WHERE mer_id = $1', [input.merId]);
    if (n[0].n >= WEBHOOK_MAX_ENDPOINTS) throw new AppError(Code.BAD_REQUEST, 'webhookTooMany', { max: WEBHOOK_MAX_ENDPOINTS }, 400);
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO webhook_endpoint (mer_id, url, description, events, secret_key_id, secret_enc, created_by, lang, created_at, updated_at, signature_scheme, api_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11) RETURNING id`,
      [input.merId, input.url, input.description, input.events, s.keyId, s.enc, user.id, lang, now, scheme, input.apiVersion ?? WEBHOOK_DEFAULT_VERSION],
    );
    await audit(q, {
      action: 'webhook.endpoint.create',
      ...actorOf(user, meta),
      merId: input.merId,
      target: String(rows[0].id),
      detail: { after: { url: input.url, events: input.events, description: input.description, signatureScheme: scheme, ...(input.apiVersion ? { apiVersion: input.apiVersion } : {}) } },
    });
    return Number(rows[0].id);
  });
  return { endpoint: await endpointOf(deps.db, id, user.scope, now), secret: s.secret };
}

export async function updateEndpoint(deps: Deps, user: SessionUser, input: WebhookEndpointUpdate, meta: Meta): Promise<VersionedEndpoint> {
  checkUrl(deps, input.url);
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const before = await endpointOf(q, input.id, user.scope, now, true);
    await q.query('UPDATE webhook_endpoint SET url = $2, events = $3, description = $4, updated_at = $5 WHERE id = $1', [input.id, input.url, input.events, input.description, now]);
    await audit(q, {
      action: 'webhook.endpoint.update',
      ...actorOf(user, meta),
      merId: before.merId,
      target: String(input.id),
      detail: { before: { url: before.url, events: before.events, description: before.description }, after: { url: input.url, events: input.events, description: input.description } },
    });
    return endpointOf(q, input.id, user.scope, now);
  });
}

/** A new secret; the one it replaces keeps signing (a second v1) for 24 hours. */
export async function rotateSecret(deps: Deps, user: SessionUser, id: number, meta: Meta): Promise<WebhookSecret> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const before = await endpointOf(q, id, user.scope, now, true);
    const s = sealSecret(deps, before.signatureScheme);
    await q.query(
      `UPDATE webhook_endpoint SET prev_secret_key_id = secret_key_id, prev_secret_enc = secret_enc, prev_secret_until = $2,
              secret_key_id = $3, secret_enc = $4, updated_at = $5 WHERE id = $1`,
      [id, new Date(now.getTime() + PREVIOUS_SECRET_MS), s.keyId, s.enc, now],
    );
    await audit(q, {
      action: 'webhook.endpoint.rotate',
      ...actorOf(user, meta),
      merId: before.merId,
      target: String(id),
      detail: { previousValidUntil: new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString() },
    });
    return { endpoint: await endpointOf(q, id, user.scope, now), secret: s.secret };
  });
}

/**
 * Ends the previous secret's overlap at once (issue 47): after a rotation the old secret signs a
 * second v1 for 24 hours; a merchant whose old secret leaked, or whose receivers all have the new
 * one, ends that now. The old secret is erased, not only expired. Refused when there is none.
 */
export async function endPreviousSecret(deps: Deps, user: SessionUser, id: number, meta: Meta): Promise<VersionedEndpoint> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const before = await endpointOf(q, id, user.scope, now, true);
    if (!before.previousSecretUntil) throw new AppError(Code.BAD_REQUEST, 'webhookNoPreviousSecret', {}, 400);
    await q.query('UPDATE webhook_endpoint SET prev_secret_key_id = NULL, prev_secret_enc = NULL, prev_secret_until = NULL, updated_at = $2 WHERE id = $1', [id, now]);
    await audit(q, {
      action: 'webhook.endpoint.endPreviousSecret',
      ...actorOf(user, meta),
      merId: before.merId,
      target: String(id),
      detail: { before: { previousValidUntil: before.previousSecretUntil }, after: { previousValidUntil: null } },
    });
    return endpointOf(q, id, user.scope, now);
  });
}

/** Turns an endpoint off (no delivery is sent; pending ones wait) or on again (they go on). */
export async function setEnabled(deps: Deps, user: SessionUser, id: number, enabled: boolean, meta: Meta): Promise<VersionedEndpoint> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const before = await endpointOf(q, id, user.scope, now, true);
    if (before.enabled === enabled) return before;
    await q.query(
      enabled
        ? 'UPDATE webhook_endpoint SET enabled = true, disabled_reason = NULL, disabled_at = NULL, updated_at = $2 WHERE id = $1'
        : "UPDATE webhook_endpoint SET enabled = false, disabled_reason = 'user', disabled_at = $2, updated_at = $2 WHERE id = $1",
      [id, now],
    );
    await audit(q, {
      action: enabled ? 'webhook.endpoint.enable' : 'webhook.endpoint.disable',
      ...actorOf(user, meta),
      merId: before.merId,
      target: String(id),
      detail: { before: { enabled: before.enabled, disabledReason: before.disabledReason }, after: { enabled } },
    });
    return endpointOf(q, id, user.scope, now);
  });
}

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

/**
 * Deletes an endpoint (issue 50: DELETE /v1/webhook_endpoints/{id}) with its delivery log; audited.
 * Its events stay (GET /v1/events).
 */
export async function deleteEndpoint(deps: Deps, user: SessionUser, id: number, meta: Meta): Promise<VersionedEndpoint> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const before = await endpointOf(q, id, user.scope, now, true);
    await q.query('DELETE FROM webhook_attempt WHERE delivery_id IN (SELECT id FROM webhook_delivery WHERE endpoint_id = $1)', [id]);
    await q.query('DELETE FROM webhook_delivery WHERE endpoint_id = $1', [id]);
    await q.query('DELETE FROM webhook_endpoint WHERE id = $1', [id]);
    await audit(q, {
      action: 'webhook.endpoint.delete',
      ...actorOf(user, meta),
      merId: before.merId,
      target: String(id),
      detail: { before: { url: before.url, events: before.events, description: before.description } },
    });
    return before;
  });
}

/** An event as delivered (the body's JSON), for GET /v1/events. */
export interface DeliveredEvent {
  id: string;
  type: string;
  /** Unix seconds, before Portal-Version 2026-12-03 */
  created?: number;
  /** ISO-8601 UTC, from Portal-Version 2026-12-03 */
  created_at?: string;
  merId: string;
  data: Record<string, unknown>;
}

interface EventRow {
  id: number;
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const delivered = (r: EventRow, version?: string): DeliveredEvent => JSON.parse(eventBody({ event_id: r.event_id, type: r.type, mer_id: r.mer_id, data: r.data, created_at: r.created_at }, version));
/** Events are kept 30 days (the purge job deletes older ones); older ones are not listed even before it runs. */
const EVENTS_KEPT_MS = 30 * 86_400_000;

/**
 * The scope's events newest first (issue 50), `limit` after the event `after` (its row id; keyset
 * paging: an event added meanwhile never shifts a page), optionally of one type or a type's prefix
 * (`refund.` …). Returns one more than `limit` when there are more. The test event is not listed.
 */
export async function listEvents(deps: Deps, scope: string[], f: { type?: string; limit: number; after?: number; version?: string }): Promise<{ rowId: number; event: DeliveredEvent }[]> {
  const since = new Date(deps.clock.now().getTime() - EVENTS_KEPT_MS);
  const prefix = f.type?.endsWith('.') ? f.type : null;
  const { rows } = await deps.db.query<EventRow>(
    `SELECT id, event_id, type, mer_id, data, created_at FROM webhook_event
      WHERE mer_id = ANY($1::text[]) AND created_at >= $2 AND type <> $3 AND ($4::bigint IS NULL OR id < $4)
        AND ($5::text IS NULL OR type = $5) AND ($6::text IS NULL OR starts_with(type, $6))
      ORDER BY id DESC LIMIT $7`,
    [scope, since, WEBHOOK_TEST_EVENT, f.after ?? null, prefix ? null : (f.type ?? null), prefix, f.limit + 1],
  );
  return rows.map((r) => ({ rowId: Number(r.id), event: delivered(r, f.version) }));
}

/** The row id of one of the scope's events by its `evt_…` id (for a cursor), or null. */
export async function eventRowId(deps: Deps, scope: string[], eventId: string): Promise<number | null> {
  const { rows } = await deps.db.query<{ id: number }>('SELECT id FROM webhook_event WHERE event_id = $1 AND mer_id = ANY($2::text[])', [eventId, scope]);
  return rows[0] ? Number(rows[0].id) : null;
}

/** One of the scope's events (of the last 30 days) by its id; another merchant's answers as absent. */
export async function getEvent(deps: Deps, scope: string[], eventId: string, version?: string): Promise<DeliveredEvent> {
  const since = new Date(deps.clock.now().getTime() - EVENTS_KEPT_MS);
  const { rows } = await deps.db.query<EventRow>(
    'SELECT id, event_id, type, mer_id, data, created_at FROM webhook_event WHERE event_id = $1 AND mer_id = ANY($2::text[]) AND created_at >= $3 AND type <> $4',
    [eventId, scope, since, WEBHOOK_TEST_EVENT],
  );
  if (!rows[0]) throw notFound();
  return delivered(rows[0], version);
}
