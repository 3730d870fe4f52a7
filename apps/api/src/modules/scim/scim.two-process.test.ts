import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Code } from '@portal/contract';
import { createTestApp, pgUrlOf, type TestCtx } from '../../../test/helpers';
import { openPostgres, type Db } from '../../db/db';
import { buildApp } from '../../app';
import { createMailer } from '../../plugins/mail';
import type { Deps } from '../../plugins/context';
import { entraUser, makeScimToken, scimClient } from './scim.fixtures';

/**
 * Two API processes on one PostgreSQL, each with its own session cache (decision 008, 60 s here):
 * a user deactivated through SCIM on A is refused by B at once — the app_user and user_session
 * triggers announce the change at COMMIT (decision 013) — and a group membership change on A takes
 * the role's permission away on B at once too.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)('SCIM: deactivation ends the sessions on every process (postgres)', () => {
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

  async function within<T>(ms: number, want: T, fn: () => Promise<T>): Promise<T> {
    const end = Date.now() + ms;
    let v = await fn();
    while (v !== want && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      v = await fn();
    }
    return v;
  }

  it('PATCH active=false on A: the token is refused by B within 1 s; a group removal takes the permission away on B', async () => {
    const admin = (await a.login()).token;
    const scim = scimClient(a, await makeScimToken(a, admin));
    const role = await a.call({ method: 'POST', url: '/api/role/save', headers: { 'x-token': admin }, payload: { name: 'Readers', permissions: ['txn:list'] } });
    await a.call({ method: 'POST', url: '/api/team/scim/mappings/save', headers: { 'x-token': admin }, payload: { groupName: 'Readers', roleId: role.body.data.id } });
    const user = await scim('POST', '/Users', entraUser('two.process@contoso.example'));
    const group = await scim('POST', '/Groups', { displayName: 'Readers', members: [{ value: user.body.id }] });
    await a.db.query("UPDATE app_user SET password_hash = (SELECT password_hash FROM app_user WHERE username = 'demo') WHERE username = 'two.process@contoso.example'");
    const token = (await a.login('two.process@contoso.example')).token;
    await new Promise((r) => setTimeout(r, 300)); // B's listener is up
    const list = async () => (await b.inject({ method: 'GET', url: '/api/txn/list?page=0&size=10', headers: { 'x-token': token } })).statusCode;
    expect(await list()).toBe(200);
    expect(await list()).toBe(200); // cached on B
    await scim('PATCH', `/Groups/${group.body.id}`, { Operations: [{ op: 'remove', path: `members[value eq "${user.body.id}"]` }] });
    expect(await within(1000, 403, list)).toBe(403);

    const info = async () => (await b.inject({ method: 'GET', url: '/api/user/info', headers: { 'x-token': token } })).json().code as number;
    expect(await info()).toBe(0);
    const off = await scim('PATCH', `/Users/${user.body.id}`, { Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.body.active).toBe(false);
    expect(await within(1000, Code.SESSION_ENDED, info)).toBe(Code.SESSION_ENDED);
  });
});
