import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DEMO, form, pgUrlOf, type TestCtx } from '../../../test/helpers';
import { openPostgres, type Db } from '../../db/db';
import { hashPassword } from '../../lib/crypto';
import { buildApp } from '../../app';
import { createMailer } from '../../plugins/mail';
import type { Deps } from '../../plugins/context';

/**
 * Two API processes on one PostgreSQL schema, each with its own pool and its own session cache
 * (decision 008) — process A's write must reach process B's cache through LISTEN/NOTIFY
 * (decision 013): a user disabled through A is refused by B within one second, though B's cache
 * would keep the session for a minute.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)('team: a disabled user is refused by every API process (postgres)', () => {
  let a: TestCtx;
  let bDb: Db;
  let b: FastifyInstance;
  let bDir: string;

  beforeAll(async () => {
    a = await createTestApp({ kind: 'postgres', config: { sessionCacheMs: 60_000 } });
    bDb = await openPostgres(pgUrlOf(a.db), { max: 4 });
    bDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-b-'));
    const deps: Deps = { config: a.config, db: bDb, clock: a.clock, mailer: createMailer({ outboxDir: path.join(bDir, 'outbox'), from: a.config.mailFrom }) };
    b = await buildApp(deps);
    await b.ready();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await bDb?.close();
    await a?.close();
    if (bDir) fs.rmSync(bDir, { recursive: true, force: true });
  });

  const info = async (app: FastifyInstance, token: string) => (await app.inject({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } })).json().code as number;

  /** Polls until `fn` gives `want` or `ms` pass; returns the last value. */
  async function within<T>(ms: number, want: T, fn: () => Promise<T>): Promise<T> {
    const end = Date.now() + ms;
    let v = await fn();
    while (v !== want && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      v = await fn();
    }
    return v;
  }

  it('disable through A; B refuses the token within 1 s; enable and a new sign-in works on B again', async () => {
    // B's listener is up before we rely on it (it listens right after buildApp; allow it a moment).
    const sub = (await a.login(DEMO.users.sub)).token;
    const main = (await a.login()).token;
    // B looks the session up and caches it (for 60 s).
    await new Promise((r) => setTimeout(r, 300));
    expect(await info(b, sub)).toBe(0);
    expect(await info(b, sub)).toBe(0);
    const { rows } = await a.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.sub]);
    const f = form({ userId: rows[0].id, status: 'DISABLED' });
    const res = await a.app.inject({ method: 'POST', url: '/api/user/updateUserStatus', headers: { ...f.headers, 'x-token': main }, payload: f.payload });
    expect(res.json().code).toBe(0);
    expect(await within(1000, Code.SESSION_ENDED, () => info(b, sub))).toBe(Code.SESSION_ENDED);
    // And a session ended by logout on A (not a user change): refused on B too.
    const main2 = (await a.login()).token;
    expect(await info(b, main2)).toBe(0);
    await a.app.inject({ method: 'POST', url: '/api/user/logout', headers: { 'x-token': main2 } });
    expect(await within(1000, Code.SESSION_ENDED, () => info(b, main2))).toBe(Code.SESSION_ENDED);
  });

  it('without notifications (a plain SQL write on another connection) the cache would have kept it: the trigger is what tells B', async () => {
    const main = (await a.login()).token;
    expect(await info(b, main)).toBe(0);
    // A write that the triggers ignore (last-seen) leaves B's cached row in place: still accepted.
    await a.db.query(`UPDATE user_session SET user_agent = 'x' WHERE revoked_at IS NULL`);
    expect(await info(b, main)).toBe(0);
  });

  it("a named role changed through A: its holder's session on B loses the permission within 1 s (issue 28)", async () => {
    const main = (await a.login()).token;
    const post = async (url: string, body: Record<string, string | number>) => {
      const f = form(body);
      return (await a.app.inject({ method: 'POST', url, headers: { ...f.headers, 'x-token': main }, payload: f.payload })).json();
    };
    const role = await post('/api/role/save', { name: 'Two process', permissions: `${Perm.txnList},${Perm.txnDetail}` });
    const user = await post('/api/user/add', { userName: 'role.holder', email: 'role.holder@x.example', merIds: DEMO.subA, role: 'CUSTOM', roleId: role.data.id });
    expect(user.code).toBe(0);
    await a.db.query(`UPDATE app_user SET password_hash = $2, status = 'ACTIVE' WHERE id = $1`, [user.data.id, await hashPassword(DEMO.password)]);
    const holder = (await a.login('role.holder')).token;
    const list = async () => (await b.inject({ method: 'GET', url: '/api/txn/list?page=0&size=10', headers: { 'x-token': holder } })).statusCode;
    expect(await list()).toBe(200);
    expect(await list()).toBe(200); // cached on B
    expect((await post('/api/role/save', { roleId: role.data.id, name: 'Two process', permissions: Perm.txnDetail })).code).toBe(0);
    expect(await within(1000, 403, list)).toBe(403);
  });
});
