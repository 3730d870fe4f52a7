import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Code } from '@portal/contract';
import { DB_KINDS, DEMO, form, freshDb } from '../../test/helpers';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { TestClock } from '../lib/clock';
import { createMailer, readOutbox } from '../plugins/mail';
import { seedFoundation } from '../seed/foundation.seed';
import { startJobRunner } from '../jobs/start';
import { enqueueJob } from '../jobs/queue';
import { addTxn } from '../modules/txn/txn.fixtures';
import { totpFor } from '../modules/user/totp';
import { feedRow, makeConnection, signedHeaders } from '../modules/gateway/gateway.fixtures';
import { beginShutdown, resetLifecycle } from './lifecycle';
import { registry } from '../plugins/metrics';
import type { Db } from '../db/db';
import type { Deps } from '../plugins/context';

const CHAT_SECRET = 'chat-signing-secret-0123456789abcdefXYZ';
const METRICS_TOKEN = 'metrics-token-4f9a1c2e7b';
const CARD = '6222021234567890';
const FEED_CARD = '4000056655665556';

/** One app per engine, with its log captured line by line (the secrets test greps it). */
async function opsApp(kind: 'pglite' | 'postgres') {
  const db = await freshDb(kind);
  await seedFoundation(db, { env: 'test' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ops-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'debug', TRUST_PROXY: '10.0.0.1' }),
    chatWidgetUrl: 'https://chat.example.com/widget',
    chatSecret: CHAT_SECRET,
    metricsToken: METRICS_TOKEN,
  };
  const outbox = path.join(dataDir, 'outbox');
  const mailer = createMailer({ outboxDir: outbox, from: config.mailFrom });
  const clock = new TestClock(new Date());
  const deps: Deps = { config, db, clock, mailer };
  const lines: string[] = [];
  const app: FastifyInstance = await buildApp(deps, { logger: true, jobRunner: true, logStream: { write: (l) => void lines.push(l) } });
  await app.ready();
  const call = async (o: InjectOptions) => {
    const res = await app.inject(o);
    let body: any = null;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, headers: res.headers, text: res.body };
  };
  const lastCode = async () => {
    const m = (await readOutbox(outbox))[0];
    return /\b(\d{6})\b/.exec(m.text)![1];
  };
  const login = async (username: string = DEMO.users.demo) => {
    clock.advance(61_000);
    await call({ method: 'POST', url: '/api/user/getEmailCode', payload: { username } });
    const verifyCode = await lastCode();
    const r = await call({ method: 'POST', url: '/api/user/login', payload: { username, password: DEMO.password, verifyCode } });
    if (r.body.code !== 0) throw new Error(r.body.msg);
    return { ...(r.body.data as { token: string; refreshToken: string }), verifyCode };
  };
  return {
    app,
    db,
    deps,
    clock,
    call,
    login,
    lines,
    async close() {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DB_KINDS)('operations (%s)', (kind) => {
  let o: Awaited<ReturnType<typeof opsApp>>;
  let stopRunner: ((graceMs?: number) => Promise<unknown>) | undefined;
  beforeAll(async () => {
    resetLifecycle();
    o = await opsApp(kind);
  });
  afterAll(async () => {
    await stopRunner?.();
    await o?.close();
  });

  it('healthz answers without a token; readyz names each check and is 503 until the job runner ticks', async () => {
    const h = await o.call({ method: 'GET', url: '/healthz' });
    expect(h.status).toBe(200);
    expect(h.body.status).toBe('ok');
    const before = await o.call({ method: 'GET', url: '/readyz' });
    expect(before.status).toBe(503);
    expect(before.body.checks.jobRunner).toMatchObject({ ok: false });
    expect(before.body.checks.database.ok).toBe(true);
    expect(before.body.checks.migrations.ok).toBe(true);
    expect(before.body.checks.migrations.detail).toBeUndefined();
    expect(before.body.checks.migrations.applied).toBe(before.body.checks.migrations.files);
    stopRunner = startJobRunner(o.deps, o.app.log, []);
    await expect.poll(async () => (await o.call({ method: 'GET', url: '/readyz' })).status, { timeout: 5000 }).toBe(200);
    const ready = await o.call({ method: 'GET', url: '/readyz' });
    expect(ready.body).toMatchObject({ status: 'ready', checks: { shutdown: { ok: true }, database: { ok: true }, jobRunner: { ok: true } } });
    // No merchant's data in it.
    expect(ready.text).not.toMatch(new RegExp(`${DEMO.subA}|${DEMO.users.demo}`));
  });

  it('readyz: a migration file not applied makes it 503 and names the file', async () => {
    const extra = '999-ops-test-pending.sql';
    await o.db.query('DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name').then(async (r) => {
      const name = (r.rows[0] as { name: string }).name;
      try {
        const res = await o.call({ method: 'GET', url: '/readyz' });
        expect(res.status).toBe(503);
        expect(res.body.checks.migrations).toMatchObject({ ok: false, detail: `not applied: ${name}` });
      } finally {
        await o.db.query('INSERT INTO schema_migrations(name) VALUES ($1)', [name]);
      }
    });
    const after = await o.call({ method: 'GET', url: '/readyz' });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    void extra;
  });

  it('metrics: loopback callers and bearer-token holders may scrape; others get 403', async () => {
    const lo = await o.call({ method: 'GET', url: '/metrics' });
    expect(lo.status).toBe(200);
    expect(lo.headers['content-type']).toContain('text/plain');
    expect(lo.text).toContain('# TYPE portal_http_request_duration_seconds histogram');
    const away = { method: 'GET' as const, url: '/metrics', remoteAddress: '203.0.113.9' };
    expect((await o.call(away)).status).toBe(403);
    expect((await o.call({ ...away, headers: { authorization: 'Bearer wrong-token-xxxxxxxx' } })).status).toBe(403);
    expect((await o.call({ ...away, headers: { authorization: METRICS_TOKEN } })).status).toBe(403);
    expect((await o.call({ ...away, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    // A trusted proxy (TRUST_PROXY=10.0.0.1) forwarding an outside caller: not loopback.
    expect((await o.call({ ...away, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(403);
    // An untrusted outside caller claiming loopback in a header is still outside.
    expect((await o.call({ ...away, headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(403);
    // IPv4-mapped loopback is loopback.
    expect((await o.call({ method: 'GET', url: '/metrics', remoteAddress: '::ffff:127.0.0.1' })).status).toBe(200);
    // A proxy on this machine that is not a trusted proxy, forwarding someone: the caller is unknown.
    expect((await o.call({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(403);
    expect((await o.call({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '198.51.100.7', authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
  });

  it('metrics: requests by route template, jobs, queue depth and oldest age per kind, sign-ins, refunds, mails', async () => {
    // A job that fails once, one that succeeds, one due and unclaimed kind.
    const runner = (await import('../jobs/runner')).createJobRunner({
      db: o.db,
      clock: o.clock,
      log: o.app.log,
      handlers: {
        [`ops.ok.${kind}`]: async () => ({ result: 1 }),
        [`ops.bad.${kind}`]: async () => {
          throw new Error('boom');
        },
      },
    });
    await enqueueJob(o.db, { kind: `ops.ok.${kind}`, runAt: new Date(o.clock.now().getTime() - 1000) });
    await enqueueJob(o.db, { kind: `ops.bad.${kind}`, runAt: new Date(o.clock.now().getTime() - 1000) });
    await enqueueJob(o.db, { kind: `ops.waiting.${kind}`, runAt: new Date(Date.now() - 120_000) });
    await runner.tick();
    const { token } = await o.login();
    await o.call({ method: 'POST', url: '/api/user/login', payload: { username: DEMO.users.demo, password: 'Wrong1234', verifyCode: '000000' } });
    await o.call({ method: 'GET', url: '/api/txn/98765', headers: { 'x-token': token } });
    const m = (await o.call({ method: 'GET', url: '/metrics' })).text;
    const value = (re: RegExp) => Number(re.exec(m)?.[1] ?? NaN);
    expect(value(new RegExp(String.raw`portal_job_runs_total\{kind="ops.ok.${kind}",result="ok"\} (\d+)`))).toBe(1);
    expect(value(new RegExp(String.raw`portal_job_runs_total\{kind="ops.bad.${kind}",result="retry"\} (\d+)`))).toBe(1);
    expect(value(new RegExp(String.raw`portal_job_queue_depth\{kind="ops.waiting.${kind}"\} (\d+)`))).toBe(1);
    expect(value(new RegExp(String.raw`portal_job_oldest_age_seconds\{kind="ops.waiting.${kind}"\} ([\d.]+)`))).toBeGreaterThanOrEqual(119);
    expect(value(/portal_sign_ins_total\{result="success"\} (\d+)/)).toBeGreaterThanOrEqual(1);
    expect(value(/portal_sign_ins_total\{result="failure"\} (\d+)/)).toBeGreaterThanOrEqual(1);
    expect(value(/portal_mails_total\{result="sent"\} (\d+)/)).toBeGreaterThanOrEqual(1);
    expect(m).toMatch(/portal_http_request_duration_seconds_count\{route="\/api\/user\/login",method="POST",status="200"\} \d+/);
    // Route templates, never raw URLs (no ids in label values).
    // (in label values: a figure such as resident memory bytes may contain the digits by chance)
    expect(m).not.toMatch(/\{[^}]*98765[^}]*\}/);
    expect(m).toMatch(/portal_http_request_duration_seconds_count\{route="\/api\/txn\/:id",method="GET",status="\d+"\} \d+/);
    expect(m).toMatch(/portal_db_query_duration_seconds_count\{engine="[a-z]+",outcome="ok"\} \d+/);
    if (kind === 'postgres') expect(m).toMatch(/portal_db_pool_connections\{state="idle"\} \d+/);
    await o.db.query(`DELETE FROM job WHERE kind LIKE 'ops.%'`);
  });

  // Issue 52: RSS and heap of each process (the pid label survives the WORKERS=N aggregation).
  it('metrics: RSS and heap of this process, by pid', async () => {
    const m = (await o.call({ method: 'GET', url: '/metrics' })).text;
    expect(m).toMatch(/^portal_process_resident_memory_bytes \d+/m);
    expect(m).toMatch(/^portal_nodejs_heap_size_used_bytes \d+/m);
    for (const k of ['rss', 'heap_total', 'heap_used', 'external', 'array_buffers']) {
      const v = new RegExp(`^portal_process_memory_bytes\\{kind="${k}",pid="${process.pid}"\\} (\\d+)`, 'm').exec(m);
      expect(Number(v?.[1]), k).toBeGreaterThan(0);
    }
  });

  it('logs: one line per request with id, user, merchant, route, status; a trusted proxy id is kept, a client one is not; error envelopes carry it', async () => {
    const { token } = await o.login();
    o.lines.length = 0;
    const mine = await o.call({ method: 'GET', url: '/api/merchant/info', headers: { 'x-token': token, 'x-request-id': 'client-chosen-id' } });
    expect(mine.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const proxied = await o.call({ method: 'GET', url: '/api/merchant/info', remoteAddress: '10.0.0.1', headers: { 'x-token': token, 'x-request-id': 'lb-7f3a', 'x-forwarded-for': '198.51.100.7' } });
    expect(proxied.headers['x-request-id']).toBe('lb-7f3a');
    const err = await o.call({ method: 'GET', url: '/api/merchant/info' });
    expect(err.body).toMatchObject({ code: Code.NOT_LOGGED_IN, data: null, requestId: err.headers['x-request-id'] });
    expect(Object.keys(err.body)).toEqual(['code', 'msg', 'data', 'requestId']);
    const notFound = await o.call({ method: 'GET', url: '/api/nothing-here' });
    expect(notFound.body.requestId).toBe(notFound.headers['x-request-id']);
    // Success envelopes are unchanged.
    expect(Object.keys(mine.body)).toEqual(['code', 'msg', 'data']);
    const logged = o.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(logged).toHaveLength(4);
    const u = logged.find((l) => l.reqId === 'lb-7f3a');
    expect(u).toMatchObject({ route: '/api/merchant/info', method: 'GET', status: 200, merId: expect.any(String), userId: expect.any(Number) });
    expect(typeof u.ms).toBe('number');
    expect(logged.find((l) => l.reqId === err.headers['x-request-id'])).toMatchObject({ status: 401, userId: null });
  });

  it('logs: a job logs with its job id', async () => {
    const runner = (await import('../jobs/runner')).createJobRunner({ db: o.db, clock: o.clock, log: o.app.log, handlers: { 'ops.logs': async ({ log }) => void log.info({ step: 1 }, 'working') } });
    const id = await enqueueJob(o.db, { kind: 'ops.logs', runAt: new Date(o.clock.now().getTime() - 1000) });
    o.lines.length = 0;
    await runner.tick();
    const lines = o.lines.map((l) => JSON.parse(l));
    expect(lines.find((l) => l.msg === 'working')).toMatchObject({ job: id, kind: 'ops.logs', step: 1 });
    expect(lines.find((l) => l.msg === 'job done')).toMatchObject({ job: id });
  });

  it('no password, code, token, card number, TOTP secret or signing secret reaches the log', async () => {
    o.lines.length = 0;
    // Sign-in with password and e-mailed code; a refresh; a step-up with the password.
    const { token, refreshToken, verifyCode } = await o.login();
    const refreshed = await o.call({ method: 'POST', url: '/api/user/refreshToken', payload: { refreshToken } });
    const token2 = (refreshed.body.data?.token as string) ?? token;
    await o.call({ method: 'POST', url: '/api/user/checkPassword', headers: { 'x-token': token2, ...form({}).headers }, payload: form({ password: DEMO.password }).payload });
    // A wrong password.
    await o.call({ method: 'POST', url: '/api/user/login', payload: { username: DEMO.users.demo, password: 'Secret-Wrong-99', verifyCode: '123456' } });
    // A transaction with a card number, a refund of it (and one refused).
    const p = await addTxn({ db: o.db, config: o.deps.config } as never, { cardNumber: CARD, orderNo: `OPS-${kind}` });
    await o.call({ method: 'POST', url: '/api/txn/refund', headers: { 'x-token': token2, ...form({}).headers }, payload: form({ id: p.gwTransId, amount: '1.00', txnschema: 'WX' }).payload });
    await o.call({ method: 'POST', url: '/api/txn/refund', headers: { 'x-token': token2, ...form({}).headers }, payload: form({ id: p.gwTransId, amount: '999999.00', txnschema: 'WX' }).payload });
    // TOTP enrolment: the secret and a code.
    const { token: subToken } = await o.login(DEMO.users.sub);
    const setup = await o.call({ method: 'POST', url: '/api/user/totp/setup', headers: { 'x-token': subToken } });
    const secret = setup.body.data.secret as string;
    const totpCode = totpFor(secret, 'x').generate({ timestamp: o.clock.now().getTime() });
    const en = await o.call({ method: 'POST', url: '/api/user/totp/enable', headers: { 'x-token': subToken }, payload: { code: totpCode } });
    const recovery = (en.body.data?.recoveryCodes as string[] | undefined) ?? [];
    // The chat widget's signed token (CHAT_SECRET).
    const chat = await o.call({ method: 'GET', url: '/api/chat/token', headers: { 'x-token': token2 } });
    const chatToken = new URL(chat.body.data.url).searchParams.get('token') ?? JSON.stringify(chat.body.data);
    // The gateway's signed feed (a connection's signing secret, a second card number in a row).
    const gw = await makeConnection({ db: o.db, config: o.deps.config }, `ops-gw-${kind}`, [DEMO.group, DEMO.subA]);
    const feedBody = JSON.stringify({ transactions: [feedRow({ cardNumber: FEED_CARD })] });
    const fed = await o.call({
      method: 'POST',
      url: '/provider/v1/transactions',
      payload: feedBody,
      headers: signedHeaders(gw, 'POST', '/provider/v1/transactions', feedBody, o.clock.now().getTime()),
    });
    expect(fed.status).toBe(200);
    // A scrape with the metrics token.
    await o.call({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    // A server error's log line (the error serializer) must not carry them either.
    const log = o.lines.join('');
    expect(o.lines.length).toBeGreaterThan(10);
    const secrets: [string, string][] = [
      ['password', DEMO.password],
      ['e-mailed code', verifyCode],
      ['access token', token],
      ['refreshed token', token2],
      ['refresh token', refreshToken],
      ['card number', CARD],
      ['card middle digits', CARD.slice(6, 12)],
      ['TOTP secret', secret],
      ['TOTP code', totpCode],
      ['signing secret', CHAT_SECRET],
      ['gateway signing secret', gw.secret],
      ['feed card number', FEED_CARD],
      ['feed card middle digits', FEED_CARD.slice(6, 12)],
      ['chat token', chatToken],
      ['metrics token', METRICS_TOKEN],
      ['wrong password', 'Secret-Wrong-99'],
      ...recovery.map((c, i) => [`recovery code ${i}`, c] as [string, string]),
    ];
    for (const [what, s] of secrets) expect(log.includes(s), `${what} in the log`).toBe(false);
    // The log did see these requests (the grep is not vacuous).
    expect(log).toContain('"route":"/api/txn/refund"');
    expect(log).toContain('"route":"/api/user/totp/enable"');
    expect(log).toContain('"route":"/provider/v1/transactions"');
    const m = (await o.call({ method: 'GET', url: '/metrics' })).text;
    expect(m).toMatch(/portal_refunds_total\{result="success"\} [1-9]/);
    expect(m).toMatch(/portal_refunds_total\{result="failure"\} [1-9]/);
    expect(m).toMatch(/portal_ingested_rows_total\{source="manual",result="ok"\} [1-9]/);
  });

  it('shutdown of the job runner: a step that ends within the grace finishes; one that does not is handed back', async () => {
    const { createJobRunner } = await import('../jobs/runner');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const quick = createJobRunner({ db: o.db, clock: o.clock, log: o.app.log, handlers: { [`ops.step.${kind}`]: async () => void (await gate) } });
    const a = await enqueueJob(o.db, { kind: `ops.step.${kind}`, runAt: new Date(o.clock.now().getTime() - 1000) });
    void quick.tick();
    const status = async (id: number | null) =>
      (await o.db.query<{ status: string; attempts: number; locked_by: string | null }>('SELECT status, attempts, locked_by FROM job WHERE id = $1', [id])).rows[0];
    await expect.poll(async () => (await status(a)).status).toBe('running');
    const stopping = quick.stop(5000);
    setTimeout(release, 50);
    expect(await stopping).toBe(false);
    expect((await status(a)).status).toBe('done');

    const stuck = createJobRunner({ db: o.db, clock: o.clock, log: o.app.log, handlers: { [`ops.stuck.${kind}`]: () => new Promise(() => undefined) } });
    const b = await enqueueJob(o.db, { kind: `ops.stuck.${kind}`, runAt: new Date(o.clock.now().getTime() - 1000) });
    void stuck.tick();
    await expect.poll(async () => (await status(b)).status).toBe('running');
    expect(await stuck.stop(50)).toBe(true);
    // Queued again at once, this attempt not counted: another process takes it on its next poll.
    expect(await status(b)).toEqual({ status: 'queued', attempts: 0, locked_by: null });
    const m = (await o.call({ method: 'GET', url: '/metrics' })).text;
    expect(m).toContain(`portal_job_runs_total{kind="ops.stuck.${kind}",result="handed_back"} 1`);
    await o.db.query(`DELETE FROM job WHERE kind LIKE 'ops.%'`);
  });

  it('readyz turns 503 as soon as shutdown begins', async () => {
    expect((await o.call({ method: 'GET', url: '/readyz' })).status).toBe(200);
    beginShutdown();
    const r = await o.call({ method: 'GET', url: '/readyz' });
    expect(r.status).toBe(503);
    expect(r.body.checks.shutdown).toEqual({ ok: false, detail: 'shutting down' });
    resetLifecycle();
  });
});

// The registry is the process's: a second import sees the same named metrics (other modules count into it).
describe('metrics module', () => {
  it('counter() registers once and returns the same metric', async () => {
    const { counter } = await import('../plugins/metrics');
    const a = counter('portal_test_ingested_rows_total', 'test');
    const b = counter('portal_test_ingested_rows_total', 'test');
    expect(a).toBe(b);
    a.inc(3);
    expect(await registry.getSingleMetricAsString('portal_test_ingested_rows_total')).toContain('portal_test_ingested_rows_total 3');
  });
});

void ({} as Db);
