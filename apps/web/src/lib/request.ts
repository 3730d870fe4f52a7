import { fillEndpoint, type AnyEndpoint, type Endpoint, type Envelope, type FileAnswer } from '@portal/contract';
import type { TokenStore } from './tokens';
import { filenameFromDisposition } from './download';

/**
 * The request client of spec §7/§8, built by a factory so tests can give it a fake fetch, an
 * in-memory token store and a recording UI. The app's instance lives in `http.ts`.
 *
 * - base `/api`, cookies sent, 30 s timeout;
 * - headers: `Accept-Language` always; `X-Token` and `X-Timezone-Offset` (hours) when signed in;
 * - form posts url-encoded, uploads multipart, non-JSON responses are files named by
 *   `Content-Disposition`;
 * - the envelope code decides, whatever the HTTP status: 0 → data; 3 → one refresh of the token
 *   pair, every request that meets code 3 meanwhile waits for that same refresh and is replayed;
 *   -1 / 50012 / 50014 (or a failed refresh) → the 'Confirm logout' box; any other code → error
 *   message, promise rejected. No envelope at all (network, timeout, HTTP error) → a closable
 *   message that stays until dismissed.
 */

const TOKEN_EXPIRED = 3;
const LOGOUT_CODES: readonly number[] = [-1, 50012, 50014];
const REFRESH_PATH = '/user/refreshToken';

export type TransportReason = 'network' | 'timeout' | 'http';

/** A rejected request. `code` is the envelope code; null when no envelope came back. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly data: unknown = null,
    readonly status = 0,
    readonly reason: TransportReason | 'business' | 'logout' | 'aborted' = 'business',
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** How errors are shown (spec §8); the app wires antd here, tests record the calls. */
export interface RequestUi {
  /** Other non-zero codes: message (msg, else 'Error') shown after 500 ms for 30 s. */
  showError(msg: string): void;
  /** No envelope: closable message that stays until dismissed. */
  showTransportError(err: RequestError): void;
  /** -1 / 50012 / 50014 or a failed refresh: the 'Confirm logout' box (shown once at a time). */
  confirmLogout(): void;
}

export interface ClientDeps {
  fetch: typeof fetch;
  tokens: TokenStore;
  ui: RequestUi;
  language: () => string;
  /** Hours east of UTC (X-Timezone-Offset). */
  timezoneOffset: () => number;
  baseUrl?: string;
  timeoutMs?: number;
  /** The token-pair refresh under the base (another realm's client, e.g. the back office's). */
  refreshPath?: string;
}

type Params = Record<string, unknown>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the API base, e.g. `/user/info`. */
  url: string;
  /** Query string; undefined, null and '' are left out, arrays are comma-joined. */
  params?: Params;
  /** Url-encoded form body. */
  form?: Params;
  /** Multipart body. */
  multipart?: FormData;
  /** JSON body (nested input: the back office's merchant form). */
  json?: unknown;
  /** The caller shows errors itself: no message, no logout box (the promise still rejects). */
  quiet?: boolean;
  signal?: AbortSignal;
}

export interface FileResult {
  blob: Blob;
  filename: string;
}

/** What a call may add: quiet (the caller shows errors itself) and an abort signal. */
export type CallOptions = Pick<RequestOptions, 'quiet' | 'signal'>;
/** The arguments after the descriptor: the input (optional when the endpoint takes none), then options. */
export type CallArgs<E> = E extends Endpoint<infer In, unknown, unknown> ? ([In] extends [void] ? [input?: undefined, opts?: CallOptions] : [input: In, opts?: CallOptions]) : never;
/** What a call resolves to: the envelope's data, or the file for a download. */
export type CallAnswer<E> = E extends Endpoint<unknown, infer Out, unknown> ? ([Out] extends [FileAnswer] ? FileResult : Out) : never;

type Outcome = { kind: 'envelope'; env: Envelope<unknown>; status: number } | { kind: 'file'; file: FileResult };

function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    out.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return out;
}

function isEnvelope(x: unknown): x is Envelope<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'number';
}

/** The `X-Request-Id` of the latest answer the app received (the error boundary shows it). */
let latestRequestId: string | null = null;
export const lastRequestId = (): string | null => latestRequestId;

export function createClient(deps: ClientDeps) {
  const base = deps.baseUrl ?? '/api';
  const timeoutMs = deps.timeoutMs ?? 30000;
  const refreshPath = deps.refreshPath ?? REFRESH_PATH;
  let refreshing: Promise<void> | null = null;

  async function transport(opts: RequestOptions, token: string | undefined): Promise<Outcome> {
    const headers: Record<string, string> = { 'Accept-Language': deps.language() };
    if (token) {
      headers['X-Token'] = token;
      headers['X-Timezone-Offset'] = String(deps.timezoneOffset());
    }
    let body: BodyInit | undefined;
    if (opts.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      body = encode(opts.form).toString();
    } else if (opts.multipart) body = opts.multipart;
    else if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    const qs = opts.params ? encode(opts.params).toString() : '';
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
    try {
      let res: Response;
      try {
        res = await deps.fetch(`${base}${opts.url}${qs ? `?${qs}` : ''}`, {
          method: opts.method ?? (body ? 'POST' : 'GET'),
          headers,
          body,
          credentials: 'include',
          signal,
        });
      } catch (e) {
        if (opts.signal?.aborted) throw new RequestError('aborted', null, null, 0, 'aborted');
        if (timeout.signal.aborted) throw new RequestError(`timeout of ${timeoutMs}ms exceeded`, null, null, 0, 'timeout');
        throw new RequestError((e as Error)?.message || 'Network Error', null, null, 0, 'network');
      }
      latestRequestId = res.headers.get('x-request-id') ?? latestRequestId;
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('application/json')) {
        const json: unknown = await res.json().catch(() => null);
        if (isEnvelope(json)) return { kind: 'envelope', env: json, status: res.status };
        const msg = (json as { message?: string } | null)?.message;
        throw new RequestError(msg || res.statusText || `HTTP ${res.status}`, null, json, res.status, res.ok ? 'network' : 'http');
      }
      if (!res.ok) {
        // A file call that failed: the message is in the error body.
        const text = await res.text().catch(() => '');
        throw new RequestError(text.slice(0, 300) || res.statusText || `HTTP ${res.status}`, null, null, res.status, 'http');
      }
      const blob = await res.blob();
      return { kind: 'file', file: { blob, filename: filenameFromDisposition(res.headers.get('content-disposition')) ?? 'download' } };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One refresh for everybody: requests meeting code 3 meanwhile wait on the same promise. */
  function refreshOnce(usedToken: string | undefined): Promise<void> {
    const current = deps.tokens.getToken();
    if (current && current !== usedToken) return Promise.resolve(); // already refreshed by another request
    if (!refreshing) {
      refreshing = doRefresh().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  async function doRefresh(): Promise<void> {
    const refreshToken = deps.tokens.getRefreshToken();
    if (!refreshToken) throw new RequestError('Session expired', TOKEN_EXPIRED, null, 401, 'logout');
    const out = await transport({ url: refreshPath, form: { refreshToken } }, undefined);
    if (out.kind === 'envelope' && out.env.code === 0) {
      deps.tokens.setTokens(out.env.data as { token: string; refreshToken: string });
      return;
    }
    const env = out.kind === 'envelope' ? out.env : null;
    throw new RequestError(env?.msg || 'Session expired', env?.code ?? TOKEN_EXPIRED, null, 401, 'logout');
  }

  async function run(opts: RequestOptions, replayed: boolean): Promise<Outcome> {
    if (refreshing) await refreshing.catch(() => undefined);
    const token = deps.tokens.getToken();
    const out = await transport(opts, token);
    if (out.kind === 'file') return out;
    const { env, status } = out;
    if (env.code === 0) return out;
    if (env.code === TOKEN_EXPIRED && !replayed && opts.url !== refreshPath) {
      await refreshOnce(token);
      return run(opts, true);
    }
    if (LOGOUT_CODES.includes(env.code) || env.code === TOKEN_EXPIRED) {
      throw new RequestError(env.msg, env.code, env.data, status, 'logout');
    }
    throw new RequestError(env.msg || 'Error', env.code, env.data, status, 'business');
  }

  /** The whole envelope of a JSON call (errors handled per spec §8). */
  async function envelope<T>(opts: RequestOptions): Promise<Envelope<T>> {
    const out = await guarded(opts);
    if (out.kind === 'file') throw new RequestError('Unexpected file response', null, null, 200, 'http');
    return out.env as Envelope<T>;
  }

  async function guarded(opts: RequestOptions): Promise<Outcome> {
    try {
      return await run(opts, false);
    } catch (e) {
      const err = e instanceof RequestError ? e : new RequestError(String((e as Error)?.message ?? e), null, null, 0, 'network');
      if (!opts.quiet) {
        if (err.reason === 'logout') deps.ui.confirmLogout();
        else if (err.reason === 'business') deps.ui.showError(err.message || 'Error');
        else if (err.reason !== 'aborted') deps.ui.showTransportError(err);
      }
      throw err;
    }
  }

  /** The request of a descriptor: its path filled, the rest of the input as query, form, JSON or multipart. */
  function requestOf(e: AnyEndpoint, input: unknown, opts: CallOptions = {}): RequestOptions {
    if (!e.path.startsWith(`${base}/`)) throw new Error(`${e.method} ${e.path} is not under ${base}`);
    const { path, rest } = fillEndpoint(e, input);
    const req: RequestOptions = { ...opts, url: path.slice(base.length), method: e.method as RequestOptions['method'] };
    if (e.body === 'query') req.params = rest;
    else if (e.body === 'form') req.form = rest;
    else if (e.body === 'json') req.json = rest;
    else {
      const { multipart, ...query } = rest as { multipart?: FormData };
      req.multipart = multipart;
      if (Object.keys(query).length) req.params = query;
    }
    return req;
  }

  async function fileOf(opts: RequestOptions): Promise<FileResult> {
    const out = await guarded(opts);
    if (out.kind === 'file') return out.file;
    throw new RequestError(out.env.msg || 'Error', out.env.code, out.env.data, out.status, 'business');
  }

  return {
    /**
     * One endpoint of the table (packages/contract/src/endpoints): `http.call(TxnApi.detail, { id })`
     * answers the envelope's data typed by the descriptor, or the file of a download.
     */
    async call<E extends AnyEndpoint>(e: E, ...[input, opts]: CallArgs<E>): Promise<CallAnswer<E>> {
      const req = requestOf(e, input, opts);
      if (e.file) return (await fileOf(req)) as CallAnswer<E>;
      return (await envelope<CallAnswer<E>>(req)).data;
    },
    /** The whole envelope of an endpoint's answer (its msg beside the data). */
    callEnvelope<E extends AnyEndpoint>(e: E, ...[input, opts]: CallArgs<E>): Promise<Envelope<CallAnswer<E>>> {
      return envelope<CallAnswer<E>>(requestOf(e, input, opts));
    },
    envelope,
    request: async <T>(opts: RequestOptions): Promise<T> => (await envelope<T>(opts)).data,
    get: async <T>(url: string, params?: Params, opts: Partial<RequestOptions> = {}): Promise<T> => (await envelope<T>({ ...opts, url, params, method: 'GET' })).data,
    post: async <T>(url: string, form: Params = {}, opts: Partial<RequestOptions> = {}): Promise<T> => (await envelope<T>({ ...opts, url, form, method: 'POST' })).data,
    upload: async <T>(url: string, multipart: FormData, opts: Partial<RequestOptions> = {}): Promise<T> => (await envelope<T>({ ...opts, url, multipart, method: 'POST' })).data,
    /** A file call: resolves to the blob and its name; an envelope instead of a file is handled as an error. */
    file: (url: string, params?: Params, opts: Partial<RequestOptions> = {}): Promise<FileResult> => fileOf({ ...opts, url, params, method: opts.method ?? 'GET' }),
  };
}

export type HttpClient = ReturnType<typeof createClient>;
