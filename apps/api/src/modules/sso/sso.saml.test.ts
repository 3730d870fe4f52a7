import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ROLE_PRESETS } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { auth } from '../txn/txn.fixtures';
import { assertionXml, authnRequestOf, b64, idpMetadata, responseXml, signAssertion, startDns, type AssertionInput } from './sso.fixtures';

/**
 * SAML 2.0 sign-in (issue 51) against an IdP side made with a SAML signing library (xml-crypto,
 * a test key pair): a signed assertion signs the user in just in time with the mapped role; a
 * tampered signature, a wrong audience, a wrong recipient, an expired assertion, a replay, XML
 * signature wrapping and an unsigned assertion are each refused, and nobody is signed in.
 */
describe.each(DB_KINDS)('SSO: SAML 2.0 (%s)', (kind) => {
  let ctx: TestCtx;
  let dns: Awaited<ReturnType<typeof startDns>>;
  let demo: string;
  const IDP = 'https://idp.corp-saml.example/metadata';
  const SSO_URL = 'https://idp.corp-saml.example/sso';
  const post = (url: string, payload: unknown, token = demo) => ctx.call({ method: 'POST', url, headers: auth(token), payload: payload as Record<string, unknown> });
  const cookieOf = (h: unknown) => String(([] as string[]).concat(h as string)[0] ?? '').split(';')[0];

  /** Start → the IdP's answer (made by `build`) posted to the ACS with the browser's cookie → where the browser goes. */
  async function round(email: string, build: (a: AssertionInput) => string, groups = ['saml-finance']) {
    const start = await ctx.call({ method: 'POST', url: '/api/sso/start', payload: { email } });
    expect(start.body.code, start.body.msg).toBe(0);
    expect(start.body.data.url.startsWith(`${SSO_URL}?SAMLRequest=`)).toBe(true);
    const req = authnRequestOf(start.body.data.url);
    const a: AssertionInput = { idpEntityId: IDP, inResponseTo: req.id, acs: req.acs, audience: req.issuer, email, groups };
    const SAMLResponse = build(a);
    const acs = await ctx.call({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(start.headers['set-cookie']) },
      payload: new URLSearchParams({ SAMLResponse, RelayState: req.relayState }).toString(),
    });
    expect(acs.status).toBe(302);
    const to = String(acs.headers.location);
    return { to, ticket: new URL(to, 'http://x').searchParams.get('ssoTicket'), a, SAMLResponse, req };
  }
  const signed = (a: AssertionInput) => b64(signAssertion(responseXml(a, assertionXml(a))));
  const lastReason = async () =>
    (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'auth.login.failure' AND detail->>'kind' = 'saml' ORDER BY id DESC LIMIT 1")).rows[0]?.detail;

  beforeAll(async () => {
    dns = await startDns();
    ctx = await createTestApp({ kind, config: { ssoDnsServers: [dns.server] } });
    demo = (await ctx.login()).token;
    const bad = await post('/api/sso/provider', { kind: 'saml', name: 'Corp SAML', metadataXml: '<x/>' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('SAML');
    const saved = await post('/api/sso/provider', { kind: 'saml', name: 'Corp SAML', metadataXml: idpMetadata(IDP, SSO_URL) });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect(saved.body.data).toMatchObject({ kind: 'saml', idpEntityId: IDP, idpSsoUrl: SSO_URL, redirectUri: 'http://localhost:8080/api/sso/saml/acs' });
    expect((await post('/api/sso/mapping', { claimValue: 'saml-finance', role: 'FINANCE' })).body.code).toBe(0);
    const d = await post('/api/sso/domain', { domain: 'corp-saml.example' });
    dns.records.set('_portal-sso.corp-saml.example', [d.body.data.recordValue]);
    expect((await post('/api/sso/domain/verify', { id: d.body.data.id })).body.code).toBe(0);
  });
  afterAll(async () => {
    await ctx?.close();
    await dns?.close();
  });

  it("serves the portal's SP metadata (entity id, ACS) for the group; another merchant has none", async () => {
    const md = await ctx.call({ method: 'GET', url: `/api/sso/saml/${DEMO.group}/metadata` });
    expect(md.status).toBe(200);
    expect(md.headers['content-type']).toContain('samlmetadata+xml');
    expect((md.body as unknown as { raw: string }).raw).toContain(`entityID="http://localhost:8080/api/sso/saml/${DEMO.group}"`);
    expect((md.body as unknown as { raw: string }).raw).toContain('Location="http://localhost:8080/api/sso/saml/acs"');
    expect((await ctx.call({ method: 'GET', url: `/api/sso/saml/${DEMO.other}/metadata` })).status).toBe(404);
  });

  it('a signed assertion signs the user in just in time with the mapped role', async () => {
    const r = await round('aiko@corp-saml.example', signed);
    expect(r.ticket, r.to).toBeTruthy();
    const login = await ctx.call({ method: 'POST', url: '/api/sso/login', payload: { ticket: r.ticket } });
    expect(login.body.code, login.body.msg).toBe(0);
    const info = await ctx.call({ method: 'GET', url: '/api/user/info', headers: auth(login.body.data.token) });
    expect(info.body.data).toMatchObject({ username: 'aiko@corp-saml.example', merId: DEMO.group });
    expect([...info.body.data.permissions].sort()).toEqual([...ROLE_PRESETS.FINANCE].sort());
  });

  it('step-up (the refund password) of a SAML user: ForceAuthn asked; a fresh signed assertion of the same subject grants the session, an old authentication or another subject does not', async () => {
    const r = await round('aiko@corp-saml.example', signed);
    const token = (await ctx.call({ method: 'POST', url: '/api/sso/login', payload: { ticket: r.ticket } })).body.data.token as string;
    const stepUp = async (change: Partial<AssertionInput>) => {
      const s = await ctx.call({ method: 'POST', url: '/api/sso/step-up/start', headers: auth(token) });
      expect(s.body.code, s.body.msg).toBe(0);
      const url = s.body.data.url as string;
      const xml = zlib.inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
      expect(xml).toContain('ForceAuthn="true"');
      const req = authnRequestOf(url);
      const a: AssertionInput = { idpEntityId: IDP, inResponseTo: req.id, acs: req.acs, audience: req.issuer, email: 'aiko@corp-saml.example', groups: ['saml-finance'], ...change };
      const acs = await ctx.call({
        method: 'POST',
        url: '/api/sso/saml/acs',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(s.headers['set-cookie']) },
        payload: new URLSearchParams({ SAMLResponse: signed(a), RelayState: req.relayState }).toString(),
      });
      return String(acs.headers.location);
    };
    const active = async () => (await ctx.call({ method: 'GET', url: '/api/sso/step-up', headers: auth(token) })).body.data.active as boolean;
    expect(await stepUp({ authnAgoMs: 3_600_000 })).toBe('/api/sso/step-up/done?ok=0');
    expect(await stepUp({ email: 'hana-other@corp-saml.example' })).toBe('/api/sso/step-up/done?ok=0');
    expect(await active()).toBe(false);
    expect(await stepUp({})).toBe('/api/sso/step-up/done?ok=1');
    expect(await active()).toBe(true);
    const reasons = (await ctx.db.query<{ detail: any }>("SELECT detail FROM audit_log WHERE action = 'sso.step_up' ORDER BY id")).rows.map((x) => x.detail.reason ?? 'ok');
    expect(reasons).toEqual(['not-fresh', 'other-subject', 'ok']);
  });

  const refusedCases: [string, (a: AssertionInput) => string, RegExp | string][] = [
    ['an unsigned assertion', (a) => b64(responseXml(a, assertionXml(a))), 'assertion'],
    ['a tampered signature (the e-mail changed after signing)', (a) => b64(signAssertion(responseXml(a, assertionXml(a))).replaceAll(a.email, 'boss@corp-saml.example')), 'assertion'],
    ['a wrong audience', (a) => signed({ ...a, audience: 'https://evil.example/sp' }), 'assertion'],
    ['a wrong recipient', (a) => signed({ ...a, acs: 'https://evil.example/acs' }), 'assertion'],
    ['an expired assertion', (a) => signed({ ...a, validMinutes: -10 }), 'assertion'],
    ['an answer to a request the portal never sent', (a) => signed({ ...a, inResponseTo: '_never-sent' }), 'assertion'],
    [
      'XML signature wrapping (an unsigned assertion beside the signed one)',
      (a) => {
        const good = signAssertion(responseXml(a, assertionXml(a)));
        const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(good)![0];
        const evil = assertionXml({ ...a, email: 'boss@corp-saml.example', groups: ['saml-finance'] }, '_evil');
        return b64(responseXml(a, evil, `<samlp:Extensions>${signedAssertion}</samlp:Extensions>`));
      },
      'assertion',
    ],
  ];
  it.each(refusedCases)('refuses %s: nobody signed in, the reason audited', async (name, build, reason) => {
    const email = `taro-${refusedCases.findIndex((c) => c[0] === name)}@corp-saml.example`;
    const r = await round(email, build);
    expect(r.to).toBe('/login?sso=failed');
    expect((await lastReason()).reason).toBe(reason);
    expect((await ctx.db.query("SELECT 1 FROM app_user WHERE email IN ($1, 'boss@corp-saml.example')", [email])).rows).toHaveLength(0);
  });

  it('refuses a replayed response (the same assertion posted again)', async () => {
    const first = await round('hana@corp-saml.example', signed);
    expect(first.ticket).toBeTruthy();
    // The same response again, through a new sign-in of the same browser: its request was used up.
    const start = await ctx.call({ method: 'POST', url: '/api/sso/start', payload: { email: 'hana@corp-saml.example' } });
    const req = authnRequestOf(start.body.data.url);
    const again = await ctx.call({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(start.headers['set-cookie']) },
      payload: new URLSearchParams({ SAMLResponse: first.SAMLResponse, RelayState: req.relayState }).toString(),
    });
    expect(again.headers.location).toBe('/login?sso=failed');
    // And the same posting twice (its RelayState used up too).
    const twice = await ctx.call({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: first.SAMLResponse, RelayState: first.req.relayState }).toString(),
    });
    expect(twice.headers.location).toBe('/login?sso=failed');
    expect((await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sso_identity WHERE email = 'hana@corp-saml.example'")).rows[0].n).toBe(1);
  });

  it('refuses a response brought to another browser (no cookie of the RelayState)', async () => {
    const start = await ctx.call({ method: 'POST', url: '/api/sso/start', payload: { email: 'ken@corp-saml.example' } });
    const req = authnRequestOf(start.body.data.url);
    const a: AssertionInput = { idpEntityId: IDP, inResponseTo: req.id, acs: req.acs, audience: req.issuer, email: 'ken@corp-saml.example', groups: ['saml-finance'] };
    const res = await ctx.call({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: signed(a), RelayState: req.relayState }).toString(),
    });
    expect(res.headers.location).toBe('/login?sso=failed');
    expect((await lastReason()).reason).toBe('other-browser');
    expect(Code.SSO_FAILED).toBe(1252);
  });
});
