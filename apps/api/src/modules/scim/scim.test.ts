import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCIM_TOKEN_RE } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { sha256 } from '../../lib/crypto';
import { entraUser, makeScimToken, scimClient } from './scim.fixtures';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe.each(DB_KINDS)('SCIM 2.0 provisioning (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let scim: ReturnType<typeof scimClient>;
  let otherScim: ReturnType<typeof scimClient>;
  let roleId: number;
  let secret: string;

  const portal = (token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => ctx.call({ method, url, headers: { 'x-token': token }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    secret = await makeScimToken(ctx, demo);
    scim = scimClient(ctx, secret);
    otherScim = scimClient(ctx, await makeScimToken(ctx, (await ctx.login(DEMO.users.other)).token, 'Okta'));
    const role = await ctx.call({
      method: 'POST',
      url: '/api/role/save',
      headers: { 'x-token': demo },
      payload: { name: 'Finance staff', description: 'from the directory', permissions: ['txn:list', 'txn:detail'] },
    });
    expect(role.body.code, role.body.msg).toBe(0);
    roleId = (await ctx.db.query<{ id: number }>("SELECT id FROM team_role WHERE name = 'Finance staff'")).rows[0].id;
  }, 60_000);
  afterAll(() => ctx?.close());

  it('makes a token: shown once, only its hash kept, audited; the list never shows it', async () => {
    expect(secret).toMatch(SCIM_TOKEN_RE);
    const { rows } = await ctx.db.query<{ secret_hash: string; mer_id: string }>('SELECT secret_hash, mer_id FROM scim_token WHERE prefix = $1', [secret.slice(0, 17)]);
    expect(rows[0]).toMatchObject({ secret_hash: sha256(secret), mer_id: DEMO.group });
    const list = await portal(demo, 'GET', '/api/team/scim/tokens');
    expect(list.body.data[0]).toMatchObject({ name: 'Entra ID', status: 'active', createdBy: 'demo' });
    const dump = JSON.stringify(list.body) + JSON.stringify((await ctx.db.query('SELECT * FROM audit_log')).rows);
    expect(dump).not.toContain(secret.slice(18));
    expect((await ctx.db.query("SELECT 1 FROM audit_log WHERE action = 'scim.token.create'")).rows.length).toBe(2);
  });

  it('discovery: ServiceProviderConfig, ResourceTypes, Schemas in application/scim+json', async () => {
    const spc = await scim('GET', '/ServiceProviderConfig');
    expect(spc.status).toBe(200);
    expect(spc.headers['content-type']).toContain('application/scim+json');
    expect(spc.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true }, etag: { supported: true } });
    expect((await scim('GET', '/ResourceTypes')).body.Resources.map((r: any) => r.id)).toEqual(['User', 'Group']);
    expect((await scim('GET', '/ResourceTypes/User')).body.endpoint).toBe('/Users');
    expect((await scim('GET', '/Schemas')).body.totalResults).toBe(2);
    expect((await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group')).body.name).toBe('Group');
    expect((await scim('GET', '/Nothing')).body).toMatchObject({ schemas: [ERROR], status: '404' });
  });

  it('refuses a missing, malformed, unknown token and a portal session, in the SCIM error format', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/scim/v2/Users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ schemas: [ERROR], status: '401' });
    expect(none.headers['content-type']).toContain('application/scim+json');
    expect((await scimClient(ctx, 'nope')('GET', '/Users')).status).toBe(401);
    expect((await scimClient(ctx, `scim_${'A'.repeat(12)}_${'b'.repeat(43)}`)('GET', '/Users')).status).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { 'x-token': demo } })).statusCode).toBe(401);
  });

  it("Entra ID's sequence: filter (none), create, filter (found), patch active False, replace, group membership → role", async () => {
    const userName = 'jane.doe@contoso.example';
    const first = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(first.body).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });
    const made = await scim('POST', '/Users', entraUser(userName));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.headers.etag).toBe('W/"1"');
    expect(made.headers.location).toBe(made.body.meta.location);
    expect(made.body).toMatchObject({
      userName,
      active: true,
      externalId: `ext-${userName}`,
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ value: userName, primary: true }],
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    const id = made.body.id as string;
    // The portal user: in the token's merchant group, no permissions yet, no usable password.
    const u = (
      await ctx.db.query<{ mer_id: string; permissions: string[]; status: string; password_hash: string }>('SELECT mer_id, permissions, status, password_hash FROM app_user WHERE username = $1', [
        userName,
      ])
    ).rows[0];
    expect(u).toMatchObject({ mer_id: DEMO.group, permissions: [], status: 'ACTIVE', password_hash: '!unusable' });
    // It is in Team → Users.
    const team = await ctx.call({ method: 'GET', url: '/api/user/list', headers: { 'x-token': demo }, query: { text: 'jane.doe' } });
    expect(JSON.stringify(team.body.data)).toContain(userName);
    expect((await scim('GET', `/Users?filter=${encodeURIComponent(`externalId eq "ext-${userName}"`)}`)).body.Resources[0].id).toBe(id);

    // Entra ID's PATCH: capitalised op, string boolean.
    const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.active).toBe(false);
    expect(off.headers.etag).toBe('W/"2"');
    expect((await ctx.db.query<{ status: string }>('SELECT status FROM app_user WHERE username = $1', [userName])).rows[0].status).toBe('DISABLED');
    // Other PATCH path forms.
    const renamed = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Add', path: 'name.givenName', value: 'Janet' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'janet@contoso.example' },
        { op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Ops' },
        { op: 'replace', path: 'active', value: true },
      ],
    });
    expect(renamed.body).toMatchObject({ active: true, name: { givenName: 'Janet' }, emails: [{ value: 'janet@contoso.example' }] });

    // Replace (PUT) with If-Match: the current version passes, a stale one answers 412.
    const v = renamed.headers.etag as string;
    const stale = await scim('PUT', `/Users/${id}`, entraUser(userName, { displayName: 'X' }), { 'if-match': 'W/"1"' });
    expect(stale.status).toBe(412);
    const put = await scim('PUT', `/Users/${id}`, entraUser(userName, { displayName: 'Jane D.' }), { 'if-match': v });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: 'Jane D.', emails: [{ value: userName }] });

    // Group membership: Entra creates the group, adds the member; the mapping gives the role.
    const mapped = await portal(demo, 'POST', '/api/team/scim/mappings/save', { groupName: 'Portal Finance', roleId });
    expect(mapped.body.code, mapped.body.msg).toBe(0);
    const g = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Portal Finance', externalId: 'g-1', members: [] });
    expect(g.status).toBe(201);
    expect((await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "portal finance"')}&excludedAttributes=members`)).body.Resources[0]).not.toHaveProperty('members');
    const add = await scim('PATCH', `/Groups/${g.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }] });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const perms = async () =>
      (await ctx.db.query<{ permissions: string[]; team_role_id: number | null; role: string | null }>('SELECT permissions, team_role_id, role FROM app_user WHERE username = $1', [userName])).rows[0];
    expect(await perms()).toMatchObject({ permissions: ['txn:list', 'txn:detail'], team_role_id: roleId, role: 'CUSTOM' });
    expect((await scim('GET', `/Users/${id}`)).body.groups).toEqual([expect.objectContaining({ value: g.body.id, display: 'Portal Finance' })]);
    // Entra's removal: the filtered path.
    await scim('PATCH', `/Groups/${g.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: `members[value eq "${id}"]` }] });
    expect(await perms()).toMatchObject({ permissions: [], team_role_id: null, role: null });
    expect((await ctx.db.query("SELECT 1 FROM audit_log WHERE action = 'scim.user.role' AND target = $1", [userName])).rows.length).toBe(2);
  });

  it("Okta's sequence: create, path-less replace {active:false} ends the user's sessions, group push with PUT and PATCH replace", async () => {
    const userName = 'okta.user@demo-group.example';
    const made = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      name: { givenName: 'Okta', familyName: 'User' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Okta User',
      locale: 'en-US',
      externalId: '00u1',
      groups: [],
      password: 'ignored-Secret1',
      active: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as string;
    // Give the user a password and a session, as if it had signed in.
    await ctx.db.query("UPDATE app_user SET password_hash = (SELECT password_hash FROM app_user WHERE username = 'demo') WHERE username = $1", [userName]);
    const session = await ctx.login(userName);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': session.token } })).body.code).toBe(0);

    const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.body.active).toBe(false);
    expect((await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': session.token } })).body.code).toBe(50014);
    const a = (await ctx.db.query<{ detail: any; username: string }>("SELECT detail, username FROM audit_log WHERE action = 'scim.user.deactivate' AND target = $1", [userName])).rows[0];
    expect(a.detail).toMatchObject({ before: { active: true }, after: { active: false }, sessionsEnded: 1 });
    expect(a.username).toMatch(/^scim:scim_/);
    // Reactivated: a new sign-in works.
    await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
    expect((await ctx.login(userName)).token).toBeTruthy();

    // Okta's group push: POST the group, PUT its members, PATCH replace the name.
    const g = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Okta Pushed', members: [] });
    const put = await scim('PUT', `/Groups/${g.body.id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      id: g.body.id,
      displayName: 'Okta Pushed',
      members: [{ value: id, display: userName }],
    });
    expect(put.body.members).toEqual([expect.objectContaining({ value: id })]);
    await portal(demo, 'POST', '/api/team/scim/mappings/save', { groupName: 'Portal Finance (Okta)', roleId });
    const rename = await scim('PATCH', `/Groups/${g.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: g.body.id, displayName: 'Portal Finance (Okta)' } }] });
    expect(rename.body.displayName).toBe('Portal Finance (Okta)');
    expect((await ctx.db.query<{ team_role_id: number }>('SELECT team_role_id FROM app_user WHERE username = $1', [userName])).rows[0].team_role_id).toBe(roleId);
    // Removing the mapping takes the role away at once.
    const maps = (await portal(demo, 'GET', '/api/team/scim/mappings')).body.data as { id: number; groupName: string }[];
    await portal(demo, 'POST', '/api/team/scim/mappings/remove', { id: maps.find((m) => m.groupName === 'Portal Finance (Okta)')!.id });
    expect((await ctx.db.query<{ team_role_id: number | null }>('SELECT team_role_id FROM app_user WHERE username = $1', [userName])).rows[0].team_role_id).toBe(null);
    // Delete: the group, then the user (404 after).
    expect((await scim('DELETE', `/Groups/${g.body.id}`)).status).toBe(204);
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    expect((await ctx.db.query<{ removed: boolean }>('SELECT removed_at IS NOT NULL AS removed FROM app_user WHERE username = $1', [userName])).rows[0].removed).toBe(true);
  });

  it('pagination (startIndex, count) and filters; bad filters and bodies answer 400 in the SCIM format, nothing changed', async () => {
    for (const n of [1, 2, 3]) expect((await scim('POST', '/Users', entraUser(`page${n}@contoso.example`))).status).toBe(201);
    const all = await scim('GET', '/Users?count=200');
    const total = all.body.totalResults as number;
    const page = await scim('GET', '/Users?startIndex=2&count=2');
    expect(page.body).toMatchObject({ totalResults: total, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((r: any) => r.id)).toEqual(all.body.Resources.slice(1, 3).map((r: any) => r.id));
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: total, itemsPerPage: 0 });
    const before = (await ctx.db.query('SELECT count(*)::int AS n FROM app_user')).rows[0];
    for (const f of ['userName co "x"', 'userName eq "a" and active eq true', 'nickName eq "x"', '(userName eq "a")']) {
      const r = await scim('GET', `/Users?filter=${encodeURIComponent(f)}`);
      expect(r.status, f).toBe(400);
      expect(r.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    }
    const bad = [
      [{ userName: 'x' }, 'invalidValue'],
      [{ userName: 'ok.name@contoso.example', emails: [{ value: 'not-mail' }] }, 'invalidValue'],
      [{ userName: 'ok.name', emails: [] }, 'invalidValue'],
    ] as const;
    for (const [body, type] of bad) expect((await scim('POST', '/Users', body)).body.scimType).toBe(type);
    const json = await ctx.app.inject({ method: 'POST', url: '/scim/v2/Users', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' }, payload: '{"userName":' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ schemas: [ERROR], scimType: 'invalidSyntax' });
    const badPatch = await scim('PATCH', `/Users/${all.body.Resources[0].id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'favouriteColour', value: 'x' }] });
    expect(badPatch.body).toMatchObject({ status: '400', scimType: 'invalidPath' });
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM app_user')).rows[0]).toEqual(before);
    // Taken: the same userName (or an existing portal user's name) → 409 uniqueness.
    expect((await scim('POST', '/Users', entraUser('page1@contoso.example'))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('POST', '/Users', entraUser('demo-sub', { emails: [{ value: 'x@contoso.example' }] }))).status).toBe(409);
    // A message in the caller's language.
    const zh = await scim('GET', '/Users?filter=bad', undefined, { 'accept-language': 'zh' });
    expect(zh.body.detail).toContain('不支持的筛选条件');
  });

  it("another merchant's token: the user answers 404 and is not listed; it cannot add the user to its group", async () => {
    const mine = await scim('POST', '/Users', entraUser('mine@contoso.example'));
    const id = mine.body.id as string;
    expect((await otherScim('GET', `/Users/${id}`)).status).toBe(404);
    expect((await otherScim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(404);
    expect((await otherScim('PUT', `/Users/${id}`, entraUser('mine@contoso.example'))).status).toBe(404);
    expect((await otherScim('DELETE', `/Users/${id}`)).status).toBe(404);
    expect((await otherScim('GET', `/Users?filter=${encodeURIComponent('userName eq "mine@contoso.example"')}`)).body.totalResults).toBe(0);
    const g = await otherScim('POST', '/Groups', { displayName: 'Theirs', members: [{ value: id }] });
    expect(g.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await scim('GET', `/Users/${id}`)).body.active).toBe(true);
    // A portal user without team:scim:manage cannot make tokens (403); a revoked token is refused at once.
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await portal(sub, 'POST', '/api/team/scim/tokens/create', { name: 'x' })).status).toBe(403);
    const t = await makeScimToken(ctx, demo, 'short-lived');
    const tokens = (await portal(demo, 'GET', '/api/team/scim/tokens')).body.data as { id: number; name: string }[];
    const row = tokens.find((x) => x.name === 'short-lived')!;
    // Another merchant's administrator cannot revoke it (404).
    const other = (await ctx.login(DEMO.users.other)).token;
    expect((await portal(other, 'POST', '/api/team/scim/tokens/revoke', { id: row.id })).status).toBe(404);
    expect((await scimClient(ctx, t)('GET', '/Users')).status).toBe(200);
    expect((await portal(demo, 'POST', '/api/team/scim/tokens/revoke', { id: row.id })).body.data.status).toBe('revoked');
    expect((await scimClient(ctx, t)('GET', '/Users')).status).toBe(401);
  });

  it.skipIf(!isConcurrent(kind))('provisions the same user in parallel: one user, the others 409', async () => {
    const body = entraUser('parallel@contoso.example');
    const answers = await Promise.all(Array.from({ length: 8 }, () => scim('POST', '/Users', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect((await ctx.db.query("SELECT count(*)::int AS n FROM app_user WHERE lower(username) = 'parallel@contoso.example'")).rows[0].n).toBe(1);
    expect((await ctx.db.query("SELECT count(*)::int AS n FROM scim_user s JOIN app_user u ON u.id = s.user_id WHERE u.username = 'parallel@contoso.example'")).rows[0].n).toBe(1);
  });
});
