import { setTimeout as sleep } from 'node:timers/promises';
import type { Acquirer, AcquirerAnswer, CardSecret, OperationRequest } from './acquirer.types';
import { SIGNATURE_HEADERS, signRequest } from './signature';

export interface HttpAcquirerOptions {
  /** Base URL: requests go to {url}/refunds, /voids, /charges and {url}/operations/{key}. */
  url: string;
  signingKey: string;
  keyId: string;
  timeoutMs: number;
  /** Immediate retries of an unanswered request, same key and body. */
  retries: number;
  /** First pause between retries (doubles each time); 200 ms unless a test wants less. */
  retryDelayMs?: number;
  /** Unix time source for the signature (tests). */
  now?: () => Date;
}

const MAX_BODY = 64 * 1024;
const PATHS = { refund: '/refunds', void: '/voids', charge: '/charges' } as const;

interface GatewayBody {
  status?: unknown;
  code?: unknown;
  message?: unknown;
  gatewayReference?: unknown;
}

/** The gateway's answer → ours. Anything unexpected is 'unknown' (asked again later), never a guess. */
function interpret(status: number, text: string, isStatusQuery: boolean): AcquirerAnswer {
  if (isStatusQuery && status === 404) return { kind: 'not_found' };
  let body: GatewayBody | null = null;
  try {
    body = text ? (JSON.parse(text) as GatewayBody) : null;
  } catch {
    body = null;
  }
  const msg = typeof body?.message === 'string' ? body.message.slice(0, 200) : null;
  const code = typeof body?.code === 'string' && /^[0-9A-Za-z]{2,4}$/.test(body.code) ? body.code : null;
  if (status >= 200 && status < 300 && body) {
    const ref = typeof body.gatewayReference === 'string' ? body.gatewayReference.slice(0, 64) : null;
    if (body.status === 'succeeded') return { kind: 'final', gwResponse: '00', respMsg: msg ?? 'Approved', channelOrderNo: ref };
    if (body.status === 'failed') return { kind: 'final', gwResponse: code && code !== '00' && code !== '04' ? code : '01', respMsg: msg ?? 'Declined', channelOrderNo: ref };
    if (body.status === 'processing') return { kind: 'processing', respMsg: msg ?? 'Processing' };
    return { kind: 'unknown', error: `HTTP ${status}: unreadable status` };
  }
  // A refusal of the request itself (bad field, unknown merchant): the gateway did nothing with it.
  if (!isStatusQuery && (status === 400 || status === 422))
    return { kind: 'final', gwResponse: code && code !== '00' && code !== '04' ? code : '12', respMsg: msg ?? `Refused by the gateway (HTTP ${status})` };
  // 5xx, 408, 409, 429, 401/403 (our key or clock): we do not know what happened — ask again later.
  return { kind: 'unknown', error: `HTTP ${status}${msg ? `: ${msg}` : ''}` };
}

/**
 * The HTTP gateway adapter: signed JSON requests (signature.ts), a timeout per attempt, and up to
 * `retries` immediate retries of an unanswered attempt with the same idempotency key and body.
 * It holds nothing: callers send only after their database transaction has committed.
 */
export function createHttpAcquirer(o: HttpAcquirerOptions): Acquirer {
  const base = new URL(o.url);
  const basePath = base.pathname.replace(/\/+$/, '');
  const now = o.now ?? (() => new Date());
  const delay = o.retryDelayMs ?? 200;

  async function once(method: 'GET' | 'POST', path: string, body: string, key: string, isStatus: boolean): Promise<AcquirerAnswer> {
    const url = new URL(`${base.origin}${basePath}${path}`);
    const ts = String(Math.floor(now().getTime() / 1000));
    const headers: Record<string, string> = {
      [SIGNATURE_HEADERS.keyId]: o.keyId,
      [SIGNATURE_HEADERS.timestamp]: ts,
      [SIGNATURE_HEADERS.signature]: signRequest(o.signingKey, ts, method, url.pathname + url.search, body),
      [SIGNATURE_HEADERS.idempotencyKey]: key,
      accept: 'application/json',
    };
    if (method === 'POST') headers['content-type'] = 'application/json';
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), o.timeoutMs);
    try {
      const res = await fetch(url, { method, headers, ...(method === 'POST' ? { body } : {}), signal: ctl.signal, redirect: 'error' });
      const text = await res.text();
      return interpret(res.status, text.length > MAX_BODY ? '' : text, isStatus);
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return { kind: 'unknown', error: ctl.signal.aborted ? `timeout after ${o.timeoutMs} ms` : `network: ${e.cause?.code ?? e.message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  async function withRetries(method: 'GET' | 'POST', path: string, body: string, key: string, isStatus: boolean): Promise<AcquirerAnswer> {
    let answer = await once(method, path, body, key, isStatus);
    for (let i = 0; i < o.retries && answer.kind === 'unknown'; i++) {
      await sleep(delay * 2 ** i);
      answer = await once(method, path, body, key, isStatus);
    }
    return answer;
  }

  const post = (req: OperationRequest, card?: CardSecret) => withRetries('POST', PATHS[req.kind], JSON.stringify(card ? { ...req, card: { number: card.number } } : req), req.idempotencyKey, false);

  return {
    name: 'http',
    refund: (req) => post(req),
    void: (req) => post(req),
    charge: (req, card) => post(req, card),
    status: (req) => withRetries('GET', `/operations/${encodeURIComponent(req.idempotencyKey)}`, '', req.idempotencyKey, true),
    // Issue 48: POST /disputes/{gateway dispute id}/evidence | /accept.
    dispute: (req) => withRetries('POST', `/disputes/${encodeURIComponent(req.gwDisputeId)}/${req.kind === 'submit' ? 'evidence' : 'accept'}`, JSON.stringify(req), req.idempotencyKey, false),
  };
}
