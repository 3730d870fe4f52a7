import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256 } from '../../lib/crypto';
import type { Deps } from '../../plugins/context';
import type { JobHandler } from '../../jobs/runner';
import { ensureRecurringJob } from '../../jobs/queue';
import { V1Error } from './v1.errors';
import { IDEMPOTENCY_KEY_RE } from './v1.document';

declare module 'fastify' {
  interface FastifyRequest {
    /** An idempotent /v1 request's claimed key (its answer is stored when it is sent). */
    idempotency?: { keyId: number; key: string };
  }
}

/** How long a key's first answer is kept (then the purge job deletes it; the key may be used again). */
export const IDEMPOTENCY_KEEP_MS = 24 * 3_600_000;
/** A request that finds the same key still running waits this long for its answer, then 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
export const IDEMPOTENCY_PURGE_JOB = 'v1.idempotency.purge';

/** A canonical text of a JSON value (object keys sorted), so the same body hashes alike however written. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

interface Claim {
  operation: string;
  body_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Idempotency on every /v1 route that declares `config.v1.idempotent` (issue 50; every POST):
 * - no `Idempotency-Key` → 400 `idempotency_key_missing`; one not of 8–64 letters, digits, `-`, `_`
 *   → 400 `idempotency_key_invalid` (both before the body is checked);
 * - the key is claimed for the API key with the operation and the hash of its method, path and body —
 *   one unique insert, committed at once: of identical requests arriving together exactly one runs;
 * - the others (and any later repeat) wait for its answer and get that answer again, with
 *   `Idempotent-Replayed: true` — one object made, whatever the number in parallel, on any process;
 * - the same key with another body, path or operation → 409 `idempotency_error`
 *   (`idempotency_key_reused`); still running after 10 s → 409 `idempotency_key_in_use`;
 * - only what was made (200, 201) is kept — 24 hours, then the `v1.idempotency.purge` job deletes
 *   it; a refusal or failure (4xx, 5xx: nothing was made) releases the claim, so a retry with the
 *   same key runs again (e.g. after the merchant's lock is lifted); so does a 202 (a refund waiting
 *   for its four-eyes approval: a repeat answers the request's current state — the refund service
 *   joins the same one, never a second).
 */
export function idempotencyHooks(f: FastifyInstance, deps: Deps) {
  f.addHook('preValidation', async (req: FastifyRequest, reply) => {
    if (!req.routeOptions.config?.v1?.idempotent || !req.apiKey) return;
    const header = req.headers['idempotency-key'];
    if (header === undefined || header === '') throw new V1Error(400, 'invalid_request_error', 'idempotency_key_missing', 'v1IdempotencyMissing', {}, 'Idempotency-Key');
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_RE.test(header)) throw new V1Error(400, 'invalid_request_error', 'idempotency_key_invalid', 'v1IdempotencyInvalid', {}, 'Idempotency-Key');
    const keyId = req.apiKey.keyId;
    const operation = `${req.method} ${req.routeOptions.url}`;
    const hash = sha256(`${req.method} ${req.url.split('?')[0]}\n${canonical(req.body)}`);
    const ins = await deps.db.query(
      `INSERT INTO api_idempotency (key_id, idem_key, operation, body_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key_id, idem_key) DO NOTHING RETURNING key_id`,
      [keyId, header, operation, hash, deps.clock.now()],
    );
    if (ins.rowCount) {
      req.idempotency = { keyId, key: header };
      return;
    }
    const until = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (let wait = 25; ; wait = Math.min(wait * 2, 250)) {
      const { rows } = await deps.db.query<Claim>('SELECT operation, body_hash, response_status, response_body, created_at FROM api_idempotency WHERE key_id = $1 AND idem_key = $2', [keyId, header]);
      const c = rows[0];
      if (!c) {
        // Released meanwhile (its first request was refused or failed): this one runs.
        const again = await deps.db.query('INSERT INTO api_idempotency (key_id, idem_key, operation, body_hash, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key_id, idem_key) DO NOTHING', [
          keyId,
          header,
          operation,
          hash,
          deps.clock.now(),
        ]);
        if (again.rowCount) {
          req.idempotency = { keyId, key: header };
          return;
        }
        continue;
      }
      if (c.operation !== operation || c.body_hash !== hash) throw new V1Error(409, 'idempotency_error', 'idempotency_key_reused', 'v1IdempotencyReused', {}, 'Idempotency-Key');
      if (c.response_status !== null) {
        reply.header('Idempotent-Replayed', 'true');
        reply.status(c.response_status).type('application/json; charset=utf-8').send(c.response_body);
        return reply;
      }
      if (Date.now() > until) throw new V1Error(409, 'idempotency_error', 'idempotency_key_in_use', 'v1IdempotencyInUse', {}, 'Idempotency-Key');
      await sleep(wait);
    }
  });

  f.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem) return payload;
    req.idempotency = undefined;
    if (reply.statusCode !== 200 && reply.statusCode !== 201) {
      await deps.db.query('DELETE FROM api_idempotency WHERE key_id = $1 AND idem_key = $2 AND response_status IS NULL', [idem.keyId, idem.key]);
    } else {
      await deps.db.query('UPDATE api_idempotency SET response_status = $3, response_body = $4 WHERE key_id = $1 AND idem_key = $2', [
        idem.keyId,
        idem.key,
        reply.statusCode,
        typeof payload === 'string' ? payload : String(payload ?? ''),
      ]);
    }
    return payload;
  });
}

/** Deletes the keys older than 24 hours; returns how many. */
export async function purgeIdempotencyKeys(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  const r = await deps.db.query('DELETE FROM api_idempotency WHERE created_at < $1', [new Date(deps.clock.now().getTime() - IDEMPOTENCY_KEEP_MS)]);
  return r.rowCount ?? 0;
}

/** The purge, every hour (one recurring job row: one process at a time). */
export async function setUpIdempotencyJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: IDEMPOTENCY_PURGE_JOB, uniqueKey: IDEMPOTENCY_PURGE_JOB, runAt: deps.clock.now() });
  const handler: JobHandler = async ({ clock }) => ({ result: { purged: await purgeIdempotencyKeys(deps) }, nextRunAt: new Date(clock.now().getTime() + 3_600_000) });
  return { [IDEMPOTENCY_PURGE_JOB]: handler };
}
