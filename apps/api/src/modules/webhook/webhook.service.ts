import { isIP } from 'node:net';
import { Code, WEBHOOK_MAX_ENDPOINTS, type Language, type WebhookEndpoint, type WebhookEndpointCreate, type WebhookEndpointUpdate, type WebhookSecret } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { AppError, notFound } from '../../lib/errors';
import { encryptSecret, encryptionKey } from '../gateway';
import { isPrivateAddress } from './webhook.net';
import { newSecretKeyId, newWebhookSecret } from './webhook.sign';
import { WEBHOOK_DEFAULT_VERSION } from './webhook.render';

/**
 * Webhook endpoints (issue 31; decision 040); their delivery log is webhook.deliveries.ts, the
 * events to pull webhook.events.service.ts. Every call is within the
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
export const RETRY_WINDOW_MS = 3 * 24 * 3_600_000;

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

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

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

export async function endpointOf(q: Queryable, id: number, scope: string[], now: Date, lock = false): Promise<VersionedEndpoint> {
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

export const actorOf = (user: SessionUser, meta: Meta) => ({ userId: user.id, username: user.username, ip: meta.ip ?? null, userAgent: meta.userAgent ?? null });

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
