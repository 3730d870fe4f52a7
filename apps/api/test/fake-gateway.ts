import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIGNATURE_HEADERS, verifySignature } from '../src/modules/acquirer/signature';

/**
 * A payment gateway on loopback for the HTTP acquirer adapter's tests (docs/acquirer-adapter.md
 * is the contract it serves). It checks every request's signature and freshness (401 otherwise),
 * keeps operations by idempotency key — a repeat of a key never acts twice, and answers with the
 * operation's current state — and serves GET /operations/{key}. Tests script how it misbehaves,
 * request by request: answer slowly, with 500, drop the connection (having acted or not), say
 * "processing" and decide later, or — out of order — answer a status query with a stale state.
 */
export type Mode =
  /** Acts, then answers after `delayMs` (longer than the client's timeout: the answer is lost). */
  | { mode: 'slow'; delayMs: number }
  /** Answers 500; `execute` says whether it acted first (the client cannot tell). */
  | { mode: '500'; execute?: boolean }
  /** Destroys the socket without an answer; `execute` as above. */
  | { mode: 'drop'; execute?: boolean }
  /** Acts but leaves the operation processing until `settle(key, …)`. */
  | { mode: 'processing' }
  /** A status query answered with 'processing' whatever the state (a stale replica, out of order). */
  | { mode: 'stale' }
  /** Acts and answers, then writes a second, contradicting answer on the same connection. */
  | { mode: 'twice' };

export interface GatewayOp {
  key: string;
  kind: string;
  body: Record<string, unknown>;
  status: 'succeeded' | 'failed' | 'processing';
  code: string;
  message: string;
  /** How many times the gateway acted on this key (moved money): must stay 1. */
  executions: number;
}

export interface GatewayCall {
  method: string;
  path: string;
  key: string | null;
  signed: boolean;
  mode: string;
  at: number;
  /** Set when the `onRequest` hook threw for this call (e.g. the purchase row was locked). */
  hookError?: string;
}

export interface FakeGateway {
  url: string;
  signingKey: string;
  keyId: string;
  calls: GatewayCall[];
  ops: Map<string, GatewayOp>;
  /** Behaviours of the next matching requests, first in first out. */
  script(on: 'post' | 'status', ...modes: Mode[]): void;
  /** Forgets scripted behaviours not used yet and the request hook (between tests). */
  reset(): void;
  /** Decides a processing operation. */
  settle(key: string, status: 'succeeded' | 'failed', message?: string): void;
  /** Runs before each signed request is handled (the lock probe); a throw is recorded on the call. */
  onRequest: ((call: GatewayCall, body: Record<string, unknown>) => Promise<void>) | null;
  /** POSTs that reached the gateway under this key (executions are in ops). */
  postsFor(key: string): GatewayCall[];
  close(): Promise<void>;
}

/** What a new operation becomes: an amount ending in .51 (or 51 for 0-decimal currencies) is declined, the rest approved. */
function decide(body: Record<string, unknown>): Pick<GatewayOp, 'status' | 'code' | 'message'> {
  const amount = String(body.amount ?? '');
  return amount.replace('.', '').endsWith('51') ? { status: 'failed', code: '05', message: 'Do not honour' } : { status: 'succeeded', code: '00', message: 'Approved' };
}

export async function startFakeGateway(opts: { signingKey?: string; keyId?: string; maxSkewS?: number } = {}): Promise<FakeGateway> {
  const signingKey = opts.signingKey ?? 'fake-gateway-signing-key-0123456789abcdef';
  const keyId = opts.keyId ?? 'portal';
  const maxSkew = opts.maxSkewS ?? 300;
  const ops = new Map<string, GatewayOp>();
  const calls: GatewayCall[] = [];
  const scripts: Record<'post' | 'status', Mode[]> = { post: [], status: [] };
  const sockets = new Set<import('node:net').Socket>();

  const view = (op: GatewayOp) => ({
    status: op.status,
    code: op.status === 'processing' ? '04' : op.code,
    message: op.status === 'processing' ? 'Processing' : op.message,
    gatewayReference: `FG-${op.key.slice(-8)}`,
  });
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const fake: FakeGateway = {
    url: '',
    signingKey,
    keyId,
    calls,
    ops,
    onRequest: null,
    script: (on, ...modes) => void scripts[on].push(...modes),
    reset() {
      scripts.post.length = 0;
      scripts.status.length = 0;
      fake.onRequest = null;
    },
    settle(key, status, message) {
      const op = ops.get(key);
      if (!op) throw new Error(`no operation ${key}`);
      Object.assign(op, status === 'succeeded' ? { status, code: '00', message: message ?? 'Approved' } : { status, code: '05', message: message ?? 'Declined by issuer' });
    },
    postsFor: (key) => calls.filter((c) => c.method === 'POST' && c.key === key),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const h = (n: string) => (req.headers[n] as string | undefined) ?? '';
    const ts = h(SIGNATURE_HEADERS.timestamp);
    const fresh = /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= maxSkew;
    const signed = fresh && h(SIGNATURE_HEADERS.keyId) === keyId && verifySignature(signingKey, ts, method, path, raw, h(SIGNATURE_HEADERS.signature));
    const isStatus = method === 'GET' && path.startsWith('/operations/');
    const key = isStatus ? decodeURIComponent(path.slice('/operations/'.length)) : h(SIGNATURE_HEADERS.idempotencyKey) || null;
    const m = signed ? scripts[isStatus ? 'status' : 'post'].shift() : undefined;
    const call: GatewayCall = { method, path, key, signed, mode: m?.mode ?? 'ok', at: Date.now() };
    calls.push(call);
    if (!signed) return send(res, 401, { message: 'bad signature' });
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, 400, { message: 'malformed JSON' });
    }
    if (fake.onRequest) {
      try {
        await fake.onRequest(call, body);
      } catch (err) {
        call.hookError = (err as Error).message;
      }
    }
    if (isStatus) {
      const op = key ? ops.get(key) : undefined;
      if (!op) return send(res, 404, { message: 'unknown operation' });
      if (m?.mode === 'stale') return send(res, 200, { status: 'processing', code: '04', message: 'Processing' });
      return send(res, 200, view(op));
    }
    // Issue 48: a dispute's answer, POST /disputes/{gateway dispute id}/evidence | /accept (taken: 'succeeded').
    const dispute = /^\/disputes\/[^/]+\/(evidence|accept)$/.exec(path);
    const kind = dispute ? `dispute.${dispute[1]}` : ({ '/refunds': 'refund', '/voids': 'void', '/charges': 'charge' } as Record<string, string>)[path];
    if (method !== 'POST' || !kind) return send(res, 404, { message: 'no such endpoint' });
    if (!key || key !== body.idempotencyKey) return send(res, 400, { message: 'Idempotency-Key must equal idempotencyKey' });
    const act = () => {
      const prior = ops.get(key!);
      if (prior) {
        if (JSON.stringify({ ...prior.body, card: undefined }) !== JSON.stringify({ ...body, card: undefined })) return 'conflict' as const;
        return prior;
      }
      const op: GatewayOp = { key: key!, kind, body, ...(m?.mode === 'processing' ? { status: 'processing' as const, code: '04', message: 'Processing' } : decide(body)), executions: 1 };
      ops.set(key!, op);
      return op;
    };
    if (m?.mode === '500') {
      if (m.execute) act();
      return send(res, 500, { message: 'internal error' });
    }
    if (m?.mode === 'drop') {
      if (m.execute) act();
      return req.socket.destroy();
    }
    const op = act();
    if (op === 'conflict') return send(res, 409, { message: 'idempotency key reused with another body' });
    if (m?.mode === 'slow') await sleep(m.delayMs);
    send(res, 200, view(op));
    if (m?.mode === 'twice') {
      const second = JSON.stringify({ status: 'failed', code: '05', message: 'Second answer' });
      res.once('finish', () => req.socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(second)}\r\n\r\n${second}`));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
