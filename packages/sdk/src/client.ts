import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { ApiVersion, Schemas, SdkPaths } from './types';

export interface RetryOptions {
  /** Tries after the first (default 2): on a network error, 429, 500, 502, 503, 504, or 409 idempotency_key_in_use. 0 turns retries off. */
  retries?: number;
  /** The first wait in ms (default 500), doubled each try (with jitter), at most `maxDelayMs`. A `Retry-After` answer is waited as told (up to `maxDelayMs`). */
  baseDelayMs?: number;
  /** The longest wait in ms (default 10 000). */
  maxDelayMs?: number;
  /** How to wait (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

export interface PortalClientOptions extends RetryOptions {
  /** The portal's address, e.g. `https://portal.example.com` (the paths start with /v1). */
  baseUrl: string;
  /** An API key (`mpk_…`) from Developers → Keys. */
  apiKey: string;
  /** Answer every call in this version (`Portal-Version`); default: the key's, pinned at its creation. */
  version?: ApiVersion;
  /** The language of error messages (`Accept-Language`: en, zh, ko, ja). */
  language?: string;
  /** A fetch of your own (a proxy, a test double); default: the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
  /** Makes the Idempotency-Key of a POST that has none (default: a random UUID). */
  idempotencyKey?: () => string;
}

export type PortalClient = Client<SdkPaths, 'application/json'>;

/** A refusal of the API: its `Error` object (type, code, message, param, request_id) and status. */
export class PortalApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
  readonly requestId: string | null;
  constructor(status: number, body: Schemas['Error'] | undefined) {
    const e = body?.error;
    super(e?.message ?? `HTTP ${status}`);
    this.name = 'PortalApiError';
    this.status = status;
    this.type = e?.type ?? 'api_error';
    this.code = e?.code ?? 'unknown';
    this.param = e?.param ?? null;
    this.requestId = e?.request_id ?? null;
  }
}

/** The answer's data, or a PortalApiError thrown for a refusal: `const t = orThrow(await api.GET(…))`. */
export function orThrow<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) throw new PortalApiError(result.response.status, result.error as Schemas['Error'] | undefined);
  return result.data;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
/** A 409 that says the first request with this Idempotency-Key is still running (retry later), not another body. */
async function stillRunning(res: Response): Promise<boolean> {
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code === 'idempotency_key_in_use';
}
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long to wait before try `attempt + 1` (0-based): `Retry-After` when the server said, else exponential with jitter. */
export function retryDelay(attempt: number, retryAfter: string | null, o: RetryOptions = {}): number {
  const max = o.maxDelayMs ?? 10_000;
  const secs = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(secs) && secs >= 0) return Math.min(max, secs * 1000);
  const base = (o.baseDelayMs ?? 500) * 2 ** attempt;
  return Math.min(max, base / 2 + Math.random() * (base / 2));
}

/**
 * A fetch that tries again on a network error or a retryable status, sending the very same request
 * each time — the same `Idempotency-Key` header, so a POST whose first answer was lost is answered
 * from the server's stored first answer (`Idempotent-Replayed: true`), never done twice.
 */
export function retryingFetch(inner: (input: Request) => Promise<Response>, o: RetryOptions = {}): (input: Request) => Promise<Response> {
  const retries = o.retries ?? 2;
  const sleep = o.sleep ?? defaultSleep;
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let res: Response;
      try {
        res = await inner(last ? request : request.clone());
      } catch (err) {
        if (last || request.signal?.aborted) throw err;
        await sleep(retryDelay(attempt, null, o));
        continue;
      }
      if (last || !(RETRY_STATUS.has(res.status) || (res.status === 409 && (await stillRunning(res))))) return res;
      await res.body?.cancel();
      await sleep(retryDelay(attempt, res.headers.get('retry-after'), o));
    }
  };
}

/**
 * The merchant API's client: openapi-fetch over the generated types (`api.GET('/v1/refunds/{id}', …)`),
 * with the key, the version and the language on every call, an `Idempotency-Key` on every POST
 * that has none, and retries (`retryingFetch`).
 */
export function createPortalClient(o: PortalClientOptions): PortalClient {
  const makeKey = o.idempotencyKey ?? (() => crypto.randomUUID());
  const headers: Record<string, string> = { authorization: `Bearer ${o.apiKey}` };
  if (o.version) headers['portal-version'] = o.version;
  if (o.language) headers['accept-language'] = o.language;
  const inner = o.fetch ?? ((r: Request) => globalThis.fetch(r));
  const client = createClient<SdkPaths, 'application/json'>({ baseUrl: o.baseUrl.replace(/\/+$/, ''), headers, fetch: retryingFetch(inner, o) });
  const idempotency: Middleware = {
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', makeKey());
      return request;
    },
  };
  client.use(idempotency);
  return client;
}
