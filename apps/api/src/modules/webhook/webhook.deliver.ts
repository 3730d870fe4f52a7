import { pickLanguage, WEBHOOK_ATTEMPT_REASONS, WEBHOOK_SIGNATURE_HEADER } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { enqueueJob, ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler, JobLog } from '../../jobs/runner';
import { openSecret } from '../gateway';
import { NoAddress, postPinned, RefusedAddress, resolveAllowed, TimedOut } from './webhook.net';
import { signatureHeader, standardSignatureHeader } from './webhook.sign';
import { eventBody } from './webhook.render';

/**
 * Sending the outbox (decision 040). The job claims due deliveries with a lease (FOR UPDATE SKIP
 * LOCKED, so several API processes share the work and a dead one's claims run out), and for each:
 * 1. the attempt is recorded ('sending') and committed before anything leaves;
 * 2. the URL's host is resolved, every address checked (no loopback / private / link-local in
 *    production), the connection pinned to the checked address; https only in production;
 * 3. the answer is recorded in one transaction: 2xx → succeeded; otherwise the next try after an
 *    exponential backoff (1 min, 2, 4 … at most 12 h) until 3 days have passed — then the delivery
 *    has failed, the endpoint is disabled and its owners are e-mailed (a job, after commit).
 * No transaction or lock is held while the request is out. The event id and body are the same on
 * every try; the signature's timestamp is the try's.
 */

const WEBHOOK_DELIVER_JOB = 'webhook.deliver';
export const WEBHOOK_MAIL_JOB = 'webhook.mail';
const EVERY_MS = 2_000;
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
const BATCH = 20;
const PARALLEL = 4;

export function backoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(attempts - 1, 0), 12 * 3_600_000);
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints (a lease), fairly across merchants: each
 * merchant's due deliveries are ranked oldest first, and the claim takes every merchant's first,
 * then every merchant's second, and so on — so one merchant's backlog never holds another's back
 * (issue 47: 1,000 deliveries of one merchant delayed another's test event by 41 s). The chosen rows
 * are locked with SKIP LOCKED and the due condition is checked again on the locked row, so two
 * processes claiming at once never both take one delivery.
 */
async function claimDue(deps: Deps, limit: number): Promise<number[]> {
  const now = deps.clock.now();
  const { rows } = await deps.db.query<{ id: number; mer_id: string; next_attempt_at: Date }>(
    `UPDATE webhook_delivery SET lease_until = $2
      WHERE id IN (
        SELECT l.id FROM webhook_delivery l
         WHERE l.id IN (
                 SELECT r.id FROM (
                   SELECT d.id, d.next_attempt_at, row_number() OVER (PARTITION BY d.mer_id ORDER BY d.next_attempt_at, d.id) AS turn
                     FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id
                    WHERE d.state = 'pending' AND e.enabled AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
                 ) r
                  WHERE r.turn <= $3
                  ORDER BY r.turn, r.next_attempt_at, r.id LIMIT $3)
           AND l.state = 'pending' AND l.next_attempt_at <= $1 AND (l.lease_until IS NULL OR l.lease_until < $1)
         FOR UPDATE SKIP LOCKED)
      RETURNING id, mer_id, next_attempt_at`,
    [now, new Date(now.getTime() + LEASE_MS), limit],
  );
  // Tried in the same fair order (RETURNING keeps none): every merchant's first before any merchant's second.
  const byAge = (a: { at: number; id: number }, b: { at: number; id: number }) => a.at - b.at || a.id - b.id;
  const claimed = rows.map((r) => ({ id: Number(r.id), merId: r.mer_id, at: new Date(r.next_attempt_at).getTime(), turn: 0 })).sort(byAge);
  const turns = new Map<string, number>();
  for (const c of claimed) turns.set(c.merId, (c.turn = (turns.get(c.merId) ?? 0) + 1));
  return claimed.sort((a, b) => a.turn - b.turn || byAge(a, b)).map((c) => c.id);
}

interface Claimed {
  id: number;
  endpoint_id: number;
  attempts: number;
  give_up_at: Date;
  manual_pending: boolean;
  url: string;
  enabled: boolean;
  secret_key_id: string;
  secret_enc: string;
  prev_secret_key_id: string | null;
  prev_secret_enc: string | null;
  prev_secret_until: Date | null;
  signature_scheme: 'stripe' | 'standard';
  /** The endpoint's API version (pinned at its creation): the shape of the body. */
  api_version: string;
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'refused';

/**
 * What a merchant is told about an attempt that got no HTTP answer (issue 47): a generic reason,
 * never the resolver's answer or the network error itself — those could map the provider's own
 * network (which internal names exist, what they resolve to, which ports answer). The detail is kept
 * in webhook_attempt.error and the server log, for operators.
 * - `address`: the host name resolves to no address, or to one no webhook may reach (refused: a
 *   name that does not resolve and one that resolves to a private address answer alike);
 * - `https`: plain http in production; `timeout`: no answer within 10 s;
 * - `tls`: the TLS handshake or the receiver's certificate failed; `connection`: any other network error.
 */
export type AttemptReason = (typeof WEBHOOK_ATTEMPT_REASONS)[number];

function reasonOf(err: unknown): { outcome: AttemptOutcome; reason: AttemptReason } {
  if (err instanceof RefusedAddress) return { outcome: 'refused', reason: err.https ? 'https' : 'address' };
  if (err instanceof NoAddress) return { outcome: 'refused', reason: 'address' };
  const code = String((err as { code?: unknown })?.code ?? '');
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME'].includes(code)) return { outcome: 'refused', reason: 'address' };
  if (err instanceof TimedOut || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return { outcome: 'failed', reason: 'timeout' };
  if (code === 'EPROTO' || /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code)) return { outcome: 'failed', reason: 'tls' };
  return { outcome: 'failed', reason: 'connection' };
}

/** One try of one delivery. Returns its outcome (null: nothing to do — no longer pending or endpoint off). */
async function deliverOne(deps: Deps, deliveryId: number, log?: JobLog): Promise<AttemptOutcome | null> {
  const { rows } = await deps.db.query<Claimed>(
    `SELECT d.id, d.endpoint_id, d.attempts, d.give_up_at, d.manual_pending, e.url, e.enabled, e.secret_key_id, e.secret_enc,
            e.prev_secret_key_id, e.prev_secret_enc, e.prev_secret_until, e.signature_scheme, e.api_version, v.event_id, v.type, v.mer_id, v.data, v.created_at
       FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id JOIN webhook_event v ON v.id = d.event_id
      WHERE d.id = $1 AND d.state = 'pending'`,
    [deliveryId],
  );
  const d = rows[0];
  if (!d || !d.enabled) {
    await deps.db.query('UPDATE webhook_delivery SET lease_until = NULL WHERE id = $1', [deliveryId]);
    return null;
  }
  const started = deps.clock.now();
  // (A key that cannot decrypt is a configuration error: thrown before any try is recorded; the lease runs out.)
  const secrets = [openSecret(deps.config, d.secret_enc, d.secret_key_id)];
  if (d.prev_secret_enc && d.prev_secret_key_id && d.prev_secret_until && new Date(d.prev_secret_until) > started) {
    secrets.push(openSecret(deps.config, d.prev_secret_enc, d.prev_secret_key_id));
  }
  // 1. Recorded first: a crash while the request is out still shows the try.
  const { rows: a } = await deps.db.query<{ id: number }>("INSERT INTO webhook_attempt (delivery_id, started_at, outcome, manual) VALUES ($1, $2, 'sending', $3) RETURNING id", [
    d.id,
    started,
    d.manual_pending,
  ]);
  const attemptId = Number(a[0].id);
  // 2. Out, with no transaction open.
  const body = eventBody(d, d.api_version);
  const timestamp = Math.floor(started.getTime() / 1000);
  const production = deps.config.env === 'production';
  const allowPrivate = !production && deps.config.webhookAllowPrivate !== false;
  let outcome: AttemptOutcome;
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  let reason: AttemptReason | null = null;
  let address: string | null = null;
  const t0 = performance.now();
  try {
    const url = new URL(d.url);
    if (production && url.protocol !== 'https:') throw new RefusedAddress('https only in production', true);
    const pinned = await resolveAllowed(url.hostname, allowPrivate);
    address = pinned.address;
    const res = await postPinned(
      url,
      pinned,
      {
        'content-type': 'application/json',
        'user-agent': 'MerchantPortal-Webhooks/1.0',
        // The endpoint's scheme (issue 50): Stripe-like Portal-Signature, or Standard Webhooks' three headers.
        ...(d.signature_scheme === 'standard'
          ? { 'webhook-id': d.event_id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardSignatureHeader(secrets, d.event_id, timestamp, body) }
          : { [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secrets, timestamp, body) }),
        'portal-event-id': d.event_id,
        'portal-event-type': d.type,
        'portal-delivery-attempt': String(d.attempts + 1),
      },
      body,
      TIMEOUT_MS,
    );
    status = res.status;
    excerpt = res.excerpt;
    outcome = res.status >= 200 && res.status < 300 ? 'succeeded' : 'failed';
  } catch (err) {
    ({ outcome, reason } = reasonOf(err));
    // The detail (the resolver's answer, the network error) for operators only: the table and the log.
    error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    log?.info({ delivery: d.id, endpoint: Number(d.endpoint_id), merId: d.mer_id, outcome, reason, error, code: (err as { code?: unknown })?.code }, 'webhook attempt got no answer');
  }
  const latency = Math.round(performance.now() - t0);
  // 3. The answer, in one transaction.
  const finished = deps.clock.now();
  const givingUp = outcome !== 'succeeded' && finished >= new Date(d.give_up_at);
  const next = outcome === 'succeeded' || givingUp ? null : new Date(Math.min(finished.getTime() + backoffMs(d.attempts + 1), new Date(d.give_up_at).getTime()));
  await deps.db.tx(async (q) => {
    await q.query(
      `UPDATE webhook_attempt SET finished_at = $2, outcome = $3, status = $4, latency_ms = $5, address = $6, response_excerpt = $7, error = $8, next_retry_at = $9, reason = $10
        WHERE id = $1`,
      [attemptId, finished, outcome, status, latency, address, excerpt, error, next, reason],
    );
    await q.query(
      `UPDATE webhook_delivery SET state = $2, attempts = attempts + 1, last_status = $3, last_attempt_at = $4, next_attempt_at = $5,
              lease_until = NULL, manual_pending = false WHERE id = $1`,
      [d.id, outcome === 'succeeded' ? 'succeeded' : givingUp ? 'failed' : 'pending', status, started, next],
    );
    if (givingUp) {
      const off = await q.query<{ id: number; lang: string }>(
        "UPDATE webhook_endpoint SET enabled = false, disabled_reason = 'failing', disabled_at = $2, updated_at = $2 WHERE id = $1 AND enabled RETURNING id, lang",
        [d.endpoint_id, finished],
      );
      if (off.rows[0]) {
        await audit(q, {
          action: 'webhook.endpoint.disable',
          username: 'system',
          merId: d.mer_id,
          target: String(d.endpoint_id),
          detail: { reason: 'failing', before: { enabled: true }, after: { enabled: false }, lastDelivery: d.id, eventId: d.event_id },
        });
        await enqueueJob(q, { kind: WEBHOOK_MAIL_JOB, payload: { endpointId: Number(d.endpoint_id) }, uniqueKey: `${WEBHOOK_MAIL_JOB}:${d.endpoint_id}:${finished.getTime()}` });
      }
    }
  });
  return outcome;
}

/** The job's pass: claims the due deliveries and tries each (a few at a time). */
export async function deliverDue(deps: Deps, limit = BATCH, log?: JobLog): Promise<{ tried: number; succeeded: number }> {
  const ids = await claimDue(deps, limit);
  let succeeded = 0;
  // A delivery whose bookkeeping failed (database trouble, a key that cannot decrypt) is left to its
  // lease: it is tried again when the lease runs out.
  const one = (id: number) =>
    deliverOne(deps, id, log).catch((err: unknown) => {
      log?.error({ err: err instanceof Error ? err.message : String(err), delivery: id }, 'webhook delivery not recorded');
      return null;
    });
  for (let i = 0; i < ids.length; i += PARALLEL) {
    const outs = await Promise.all(ids.slice(i, i + PARALLEL).map(one));
    succeeded += outs.filter((o) => o === 'succeeded').length;
  }
  return { tried: ids.length, succeeded };
}

/** E-mails the owners of an endpoint the deliveries disabled: its creator and its merchant's developers. */
export async function mailDisabled(deps: Deps, endpointId: number): Promise<number> {
  const { rows } = await deps.db.query<{ url: string; mer_id: string; lang: string; enabled: boolean; email: string }>(
    `SELECT DISTINCT e.url, e.mer_id, e.lang, e.enabled, u.email
       FROM webhook_endpoint e JOIN merchant m ON m.mer_id = e.mer_id
       JOIN app_user u ON u.status = 'ACTIVE' AND u.email <> ''
        AND (u.id = e.created_by OR ((u.mer_id = m.mer_id OR u.mer_id = m.parent_id) AND 'developer:manage' = ANY(u.permissions)))
      WHERE e.id = $1`,
    [endpointId],
  );
  if (!rows.length || rows[0].enabled) return 0;
  const lang = pickLanguage(rows[0].lang);
  for (const r of rows) {
    await deps.mailer.send({ to: r.email, subject: t(lang, 'webhookMailSubject', { url: r.url }), text: t(lang, 'webhookMailBody', { url: r.url, merId: r.mer_id }) });
  }
  return rows.length;
}

export async function setUpWebhookJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: WEBHOOK_DELIVER_JOB, uniqueKey: WEBHOOK_DELIVER_JOB, runAt: deps.clock.now() });
  const deliver: JobHandler = async ({ clock, log }) => ({ result: await deliverDue(deps, BATCH, log), nextRunAt: new Date(clock.now().getTime() + EVERY_MS) });
  const mail: JobHandler = async ({ job }) => ({ result: { sent: await mailDisabled(deps, Number(job.payload.endpointId)) } });
  // Issue 50: events (and their deliveries) are kept 30 days — GET /v1/events reads them — then purged, daily.
  await ensureRecurringJob(deps.db, { kind: WEBHOOK_EVENTS_PURGE_JOB, uniqueKey: WEBHOOK_EVENTS_PURGE_JOB, runAt: deps.clock.now() });
  const purge: JobHandler = async ({ clock }) => ({ result: { purged: await purgeEvents(deps) }, nextRunAt: new Date(clock.now().getTime() + 86_400_000) });
  return { [WEBHOOK_DELIVER_JOB]: deliver, [WEBHOOK_MAIL_JOB]: mail, [WEBHOOK_EVENTS_PURGE_JOB]: purge };
}

export const WEBHOOK_EVENTS_PURGE_JOB = 'webhook.events.purge';
/** How long an event is kept (GET /v1/events, the delivery log). */
export const EVENT_KEEP_MS = 30 * 86_400_000;

/** Deletes the events older than 30 days with their deliveries and attempts (in batches); returns how many events. */
export async function purgeEvents(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - EVENT_KEEP_MS);
  let total = 0;
  for (;;) {
    const n = await deps.db.tx(async (q) => {
      const { rows } = await q.query<{ id: number }>('SELECT id FROM webhook_event WHERE created_at < $1 ORDER BY id LIMIT 1000', [before]);
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      await q.query('DELETE FROM webhook_attempt WHERE delivery_id IN (SELECT id FROM webhook_delivery WHERE event_id = ANY($1::bigint[]))', [ids]);
      await q.query('DELETE FROM webhook_delivery WHERE event_id = ANY($1::bigint[])', [ids]);
      await q.query('DELETE FROM webhook_event WHERE id = ANY($1::bigint[])', [ids]);
      return ids.length;
    });
    total += n;
    if (n < 1000) return total;
  }
}
