import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../helpers';
import { addTxn, loginWithStepUp } from '../../src/modules/txn/txn.fixtures';
import { createOrder, multipartFile, PDF } from '../../src/modules/paybylink/paybylink.fixtures';
import { apiRoutes, createUser, fillPath, routeKey, type ApiRoute } from './route-table';
import { endpointOfRoute } from '../../src/lib/endpoint-route';
import { SoftAuthenticator } from '../soft-authenticator';
import { ALL_ENDPOINTS } from '@portal/contract/endpoints/all';
import { pathParams, type Access } from '@portal/contract';
// Bank statements (issue 49 §2).
import { camtStatement, insertTransfers, multipartBody } from '../../src/modules/bankrec/bankrec.fixtures';
import { receiveDispute } from '../../src/modules/disputes';

/**
 * The route-table-driven access suite (issue 10). Every /api route the app registers — collected
 * through Fastify's onRoute hook, so a route added tomorrow is covered without a test of its own —
 * is called:
 *   - with no token (and with a made-up one): 401 and the logged-out envelope;
 *   - by a signed-in user holding none of its permissions: 403;
 *   - by the demo merchant with the ids of another merchant's records: 404, as if absent.
 * Only the routes of the allow-list below may be public; each says why.
 */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /api/user/getEmailCode': 'sign-in, step 1: the user has no token yet',
  'POST /api/user/login': 'sign-in, step 2',
  'POST /api/user/refreshToken': 'the refresh token in the body is the credential',
  'POST /api/user/logout': 'ends the session of X-Token if there is one (an expired token may still log out)',
  'GET /api/checkout/:token': "the buyer's checkout: the 256-bit token of the pay link is the key",
  'GET /api/checkout/:token/status': "the buyer's checkout (polling)",
  'POST /api/checkout/:token/pay': "the buyer's payment",
  'GET /api/payByLink/logo/:file': 'payment method logos (static images, shown on the public checkout)',
  'GET /api/dev/mailbox': 'development only, loopback callers only, never in production (network.test.ts)',
  'GET /api/dev/sms': 'development SMS outbox: like the mailbox, loopback only, never in production',
  'POST /api/dev/invite': 'development helper (not-activated demo user): loopback only, never in production',
  'POST /api/dev/failedJob': 'development helper (records a failed job for the back office e2e to retry): loopback only, never in production (network.test.ts)',
  'POST /api/dev/runJob': 'development stand-in for the passing of time (month-end settlement + statements as of a given instant): loopback only, never in production',
  'GET /api/user/activeInfo': 'activation page: the single-use 128-bit link token is the credential',
  'POST /api/user/active': 'activation: the link token is the credential',
  'POST /api/user/updatePassword': 'an expired password is changed before any session exists (original password is the credential)',
  'POST /api/user/forgotPassword': 'forgot password: the same answer whether or not the account exists, rate-limited',
  'GET /api/user/resetInfo': 'reset page: the single-use reset link token is the credential',
  'POST /api/user/resetByLink': 'reset: the link token is the credential',
  'GET /api/user/passwordPolicy': 'the password rules shown on the public activation and reset forms',
  'GET /api/user/wechat/available': 'whether the sign-in page shows the WeChat button',
  'GET /api/user/wechat/loginUrl': 'sign in with WeChat: the user has no token yet',
  'GET /api/user/wechat/callback': "WeChat's redirect: the single-use state is the credential",
  'POST /api/user/wechat/login': 'the one-time ticket from the callback is the credential',
  'POST /api/user/passkey/loginOptions': 'sign in with a passkey: user name and password (counted toward the lockout) come first',
  'POST /api/user/passkey/login': "sign in with a passkey: the attempt's single-use challenge and the signed assertion are the credential",
  'GET /api/checkout/store/:token': "a store's static QR: the 256-bit token is the key",
  'POST /api/checkout/store/:token/order': "a buyer's order at a store's static QR",
  'GET /api/cashier/wechat/callback': "cashier binding / sign-in: WeChat's redirect, the state is the credential",
  'GET /api/cashier/wechat/login': "the cashier view's sign in with WeChat",
  'GET /api/cashier/me': 'cashier session (HttpOnly cookie, not X-Token): 401 without it',
  'GET /api/cashier/orders': 'cashier session (HttpOnly cookie, not X-Token): 401 without it',
  'POST /api/cashier/logout': 'ends the cashier cookie session if there is one',
  // Issue 51: enterprise sign-in's steps before any session exists.
  'POST /api/sso/discover': 'sign-in, e-mail first: whether SSO is set up for the domain (no account is told apart)',
  'POST /api/sso/start': 'sign in with SSO: the user has no token yet',
  'GET /api/sso/oidc/callback': "the identity provider's redirect: the single-use, browser-bound state is the credential",
  'POST /api/sso/login': 'the one-time ticket from the callback is the credential',
  'POST /api/sso/saml/acs': "the SAML IdP's signed response to a request the portal sent, with the browser-bound RelayState, is the credential",
  'GET /api/sso/saml/:merId/metadata': "the portal's SAML service-provider metadata (public by nature: the IdP's administrator downloads it)",
  'GET /api/sso/step-up/done': "where the identity provider's window lands after a step-up: a fixed page saying confirmed or not (the grant itself happened at the callback)",
  // Issue 48.
  'POST /api/dev/disputes': 'development helper (sandbox disputes on demand, a key of the sandbox gateway connection): loopback only, never in production',
};

/** A route's access as the endpoint table writes it (issue 45 §3, decision 074). */
const accessOf = (r: ApiRoute): string => {
  if (r.config?.auth === 'public') return 'public';
  const p = r.config?.permission;
  return p === undefined ? 'signed-in' : ([] as string[]).concat(p).sort().join(' | ');
};
const describeAccess = (a: Access): string => (typeof a === 'string' ? a : 'opsRoles' in a ? `ops: ${a.opsRoles.join(' | ')}` : [...a].sort().join(' | '));
const endpointKey = (e: { method: string; path: string }) => routeKey({ method: e.method, url: e.path });

/** Field names that carry a record's identity, in paths, queries and bodies. */
const ID_FIELDS = ['id', 'no', 'attachment', 'link', 'roleId', /* issue 48 */ 'evidenceId'];

describe.each(DB_KINDS)('route table: authentication, permission, merchant scope (%s)', (kind) => {
  let ctx: TestCtx;
  let routes: ApiRoute[];
  let demo: string;
  let noPerm: string;
  let sub: string;
  /** Another merchant's records, by the field that names them. */
  const foreign: Record<string, string[]> = { id: [], no: [], attachment: [], link: [], roleId: [], evidenceId: [] };
  /** Records of the other merchant that routes under a path prefix must answer as absent (404). */
  const strict: Record<string, string[]> = {};
  /** What never appears in the demo merchant's answers: the other merchant's id, name and records. */
  const LEAK = [DEMO.other, 'Other Merchant', 'ORD-OTHER-SEC', 'OTHER-SEC'];

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    routes = apiRoutes(ctx.routes);
    // A user of the demo merchant holding no permission at all.
    await createUser(ctx, { username: 'no-perm', email: 'no-perm@demo-group.example', merId: DEMO.subA, permissions: [] });
    const other = (await ctx.login(DEMO.users.other)).token;
    // The other merchant's records: a transaction, a pay-by-link order with a bill file, an export file.
    const t = await addTxn(ctx, { merId: DEMO.other, orderNo: 'ORD-OTHER-SEC', currency: 'SGD', paymentSchema: 'CARD', paymentBrand: 'visa' });
    const mp = multipartFile('bill.pdf', PDF);
    const up = await ctx.call({ method: 'POST', url: '/api/payByLink/uploadFile', payload: mp.payload, headers: { ...mp.headers, 'x-token': other } });
    expect(up.body.code, up.body.msg).toBe(0);
    const o = await createOrder(ctx, other, { orderCurrency: 'SGD', reconId: 'OTHER-SEC' });
    const exp = await ctx.call({ method: 'GET', url: '/api/txn/exportBack', headers: { 'x-token': other }, query: { beginDate: '2026-01-01 00:00:00', endDate: '2026-03-01 00:00:00' } });
    expect(exp.body.code, exp.body.msg).toBe(0);
    strict['/api/txn/'] = [String(t.id), t.gwTransId];
    strict['/api/payByLink/'] = [String(o.id), o.orderNo, up.body.data.attachment, o.payByLink];
    strict['/api/report/file/'] = [String(exp.body.data.id)];
    // Issue 31: the other merchant's webhook endpoint and a delivery of it (a test event).
    const wh = await ctx.call({
      method: 'POST',
      url: '/api/webhooks/endpoint/create',
      headers: { 'x-token': other },
      payload: { merId: DEMO.other, url: 'http://127.0.0.1:9/hook', events: ['paylink.paid'] },
    });
    expect(wh.body.code, wh.body.msg).toBe(0);
    const whTest = await ctx.call({ method: 'POST', url: '/api/webhooks/endpoint/test', headers: { 'x-token': other }, payload: { id: wh.body.data.endpoint.id } });
    expect(whTest.body.code, whTest.body.msg).toBe(0);
    strict['/api/webhooks/'] = [String(wh.body.data.endpoint.id), String(whTest.body.data.id)];
    foreign.id.push(...strict['/api/txn/'], String(o.id), String(exp.body.data.id));
    foreign.no.push(o.orderNo);
    foreign.attachment.push(up.body.data.attachment);
    foreign.link.push(o.payByLink);
    // A named role of the other merchant's (issue 28): /api/role/* answers it as absent.
    const role = await ctx.call({ method: 'POST', url: '/api/role/save', headers: { 'x-token': other }, payload: { name: 'Other role', permissions: ['txn:list'] } });
    expect(role.body.code, role.body.msg).toBe(0);
    strict['/api/role/'] = [String(role.body.data.id)];
    foreign.roleId.push(String(role.body.data.id));
    // An access review of the other merchant's (issue 28, decision 048): /api/access/review/:id answers it as absent.
    const otherMain = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.other])).rows[0].id;
    const review = await ctx.call({ method: 'POST', url: '/api/access/review/decide', headers: { 'x-token': other }, payload: { merId: DEMO.other, userId: otherMain, decision: 'CONFIRM' } });
    expect(review.body.code, review.body.msg).toBe(0);
    strict['/api/access/review/'] = [String(review.body.data.open.id)];
    // A bank-account change of the other merchant's held by its four eyes (decision 049): the
    // approval routes answer it as absent to the demo merchant, who could otherwise approve it.
    const pol = await ctx.call({
      method: 'POST',
      url: '/api/approval/policy',
      headers: { 'x-token': other },
      payload: { merId: DEMO.other, refundLimits: [], permissionRaise: false, bankChange: true, expiryHours: 48 },
    });
    expect(pol.body.code, pol.body.msg).toBe(0);
    const held = await ctx.db.query<{ id: number }>(
      `INSERT INTO approval_request (mer_id, kind, permission, payload, summary, requested_by, requested_at, expires_at)
       SELECT $1, 'bank_change', 'merchant:bank:change', '{}', '{"bank":"Other Merchant bank"}', id, now(), now() + interval '2 days' FROM app_user WHERE username = $2 RETURNING id`,
      [DEMO.other, DEMO.users.other],
    );
    strict['/api/approval/'] = [String(held.rows[0].id)];
    foreign.id.push(String(held.rows[0].id));
    // A passkey of the other merchant's user (decision 047): /api/user/passkey/* answers it as absent.
    const key = new SoftAuthenticator(ctx.config.passkey);
    await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { 'x-token': other }, payload: { password: DEMO.password } }); // adding a passkey needs a step-up (issue 47)
    const pkOpts = await ctx.call({ method: 'POST', url: '/api/user/passkey/registerOptions', headers: { 'x-token': other } });
    const pk = await ctx.call({ method: 'POST', url: '/api/user/passkey/register', headers: { 'x-token': other }, payload: { name: 'Other key', credential: key.register(pkOpts.body.data) } });
    expect(pk.body.code, pk.body.msg).toBe(0);
    strict['/api/user/passkey/'] = [String(pk.body.data.id)];
    foreign.id.push(String(pk.body.data.id));
    // Issue 51: the other merchant's identity provider, a group mapping and a claimed domain: /api/sso/* answers them as absent.
    const idp = await ctx.db.query<{ id: number }>(
      `INSERT INTO sso_provider (mer_id, kind, name, issuer, client_id, created_at, updated_at) VALUES ($1, 'oidc', 'Other Merchant IdP', 'https://idp.other.example', 'other', now(), now()) RETURNING id`,
      [DEMO.other],
    );
    const ssoMap = await ctx.db.query<{ id: number }>(
      `INSERT INTO sso_role_mapping (mer_id, provider_id, claim_value, role, created_at) VALUES ($1, $2, 'other-group', 'FINANCE', now()) RETURNING id`,
      [DEMO.other, idp.rows[0].id],
    );
    const ssoDom = await ctx.db.query<{ id: number }>(`INSERT INTO sso_domain (mer_id, domain, token, created_at) VALUES ($1, 'other.example', 'tok', now()) RETURNING id`, [DEMO.other]);
    strict['/api/sso/'] = [String(ssoMap.rows[0].id), String(ssoDom.rows[0].id)];
    foreign.id.push(...strict['/api/sso/']);
    // Issue 49 §2: the other merchant's bank statement and the match proposed for its credit —
    // /api/bankrec/* answers them as absent to the demo merchant.
    await insertTransfers(ctx.db, [{ merId: DEMO.other, busLine: 'CARD', setCur: 'SGD', txnSetDate: '2026-03-01', remitDate: '2026-03-02', amount: 123_400 }]);
    const stmt = multipartBody({
      name: 'other.xml',
      content: camtStatement({ id: 'OTHER-SEC-STMT', account: 'SG00OTHER', currency: 'SGD', opening: 0, entries: [{ amount: 123_400, currency: 'SGD', date: '2026-03-02', bankRef: 'OTHER-SEC-1' }] }),
    });
    const bank = await ctx.call({ method: 'POST', url: '/api/bankrec/statements', payload: stmt.payload, headers: { ...stmt.headers, 'x-token': other } });
    expect(bank.body.code, bank.body.msg).toBe(0);
    const bankMatch = (await ctx.db.query<{ id: string }>('SELECT id::text AS id FROM bank_match WHERE mer_id = $1', [DEMO.other])).rows[0].id;
    strict['/api/bankrec/'] = [bankMatch, String(bank.body.data.statements[0].id)];
    foreign.id.push(bankMatch);
    // Issue 48: a dispute of the other merchant's purchase, with an evidence file: /api/disputes/* answers both as absent.
    const dsp = await ctx.db.tx((q) =>
      receiveDispute(
        q,
        {
          gwDisputeId: 'DSP-OTHER-SEC',
          gwTransId: t.gwTransId,
          kind: 'chargeback',
          state: 'needs_response',
          reasonCode: '13.1',
          amount: 100,
          currency: 'SGD',
          deadline: new Date(Date.now() + 9 * 86_400_000),
        },
        { platformTz: ctx.config.platformTz, now: new Date(), by: 'test' },
      ),
    );
    const ev = await ctx.db.query<{ id: string }>(
      `INSERT INTO dispute_evidence (dispute_id, category, file_name, mime, size, sha256, content) VALUES ($1, 'receipt', 'r.pdf', 'application/pdf', 4, 'x', '\\x25504446') RETURNING id::text`,
      [dsp.dispute.id],
    );
    strict['/api/disputes/'] = [String(dsp.dispute.id), ev.rows[0].id];
    foreign.id.push(String(dsp.dispute.id));
    foreign.evidenceId.push(ev.rows[0].id);
    // Issue 49: a transfer of the other merchant's (a settlement row that transferred): the proof's routes answer it as absent.
    await ctx.db.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
         history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       VALUES ('2026-01-05', $1, 'CARD', 'SGD', 0, 0, 0, 0, 0, 0, 0, 0, 100, 100, 0, 100, 0, 'D', '2026-01-06', '2026-01-05')`,
      [DEMO.other],
    );
    strict['/api/trail/'] = [`2026-01-05.${DEMO.other}.CARD.SGD`];
    foreign.id.push(`2026-01-05.${DEMO.other}.CARD.SGD`);
    // Generic: the id of every row of any table that belongs to the other merchant (tables added by
    // later modules included), so a new route taking an id is tried with them too.
    const { rows: tables } = await ctx.db.query<{ table_name: string }>(
      `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.columns i
          ON i.table_schema = c.table_schema AND i.table_name = c.table_name AND i.column_name = 'id'
        WHERE c.column_name = 'mer_id' AND c.table_schema = current_schema()`,
    );
    for (const { table_name } of tables) {
      const { rows } = await ctx.db.query<{ id: string }>(`SELECT id::text AS id FROM ${table_name} WHERE mer_id = $1 LIMIT 3`, [DEMO.other]);
      for (const r of rows) if (!foreign.id.includes(r.id)) foreign.id.push(r.id);
    }
    demo = await loginWithStepUp(ctx);
    noPerm = (await ctx.login('no-perm')).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
  });
  afterAll(() => ctx?.close());

  it('collects the route table', () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.map(routeKey)).toContain('GET /api/txn/list');
  });

  // The endpoint table (packages/contract/src/endpoints) against the routes: a route added without
  // its descriptor, or a descriptor whose route moved or changed its permission, fails here.
  it('every registered /api route has a descriptor in the endpoint table, with its access', () => {
    const table = new Map(ALL_ENDPOINTS.map((e) => [endpointKey(e.endpoint), e.endpoint]));
    expect(routes.filter((r) => !table.has(routeKey(r))).map(routeKey), 'routes without a descriptor').toEqual([]);
    const differ = routes.map((r) => `${routeKey(r)}: route ${accessOf(r)}, table ${describeAccess(table.get(routeKey(r))!.access)}`).filter((x) => !/route (.*), table \1$/.test(x));
    expect(differ, 'access differs').toEqual([]);
  });

  // Decision 074, issue 45 §3: every portal route is registered from its descriptor (routeOf marks
  // the route's config with it), so its method, path and access are the table's and its schemas can
  // be tied to the descriptor's types (inputOf, answerOf). A route that writes its own path fails here.
  it('every registered /api route is registered from its descriptor (routeOf)', () => {
    const unmarked = routes.filter((r) => !endpointOfRoute(r.config)).map(routeKey);
    expect(unmarked, 'routes registered without routeOf').toEqual([]);
    const elsewhere = routes.filter((r) => {
      const e = endpointOfRoute(r.config);
      return e && endpointKey(e) !== routeKey(r);
    });
    expect(elsewhere.map(routeKey), 'routes whose descriptor names another method or path').toEqual([]);
    expect(routes.length).toBe(ALL_ENDPOINTS.length);
  });

  it('every descriptor of the endpoint table has its registered route, one each', () => {
    const registered = new Map(routes.map((r) => [routeKey(r), r]));
    const keys = ALL_ENDPOINTS.map((e) => endpointKey(e.endpoint));
    expect(ALL_ENDPOINTS.filter((e) => !registered.has(endpointKey(e.endpoint))).map((e) => `${e.name}: ${endpointKey(e.endpoint)}`)).toEqual([]);
    expect(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      'two descriptors of one route',
    ).toEqual([]);
    const bad = ALL_ENDPOINTS.filter(({ endpoint: e }) => pathParams(e.path).join() !== pathParams(registered.get(endpointKey(e))?.url ?? '').join() || (e.method === 'GET') !== (e.body === 'query'));
    expect(
      bad.map((e) => e.name),
      "path parameters differ, or a GET's input is not its query",
    ).toEqual([]);
  });

  it('only the allow-listed routes are public', () => {
    const open = routes
      .filter((r) => r.config?.auth === 'public')
      .map(routeKey)
      .sort();
    expect(open).toEqual(
      Object.keys(PUBLIC_ROUTES)
        .filter((k) => routes.some((r) => routeKey(r) === k))
        .sort(),
    );
  });

  it('every other route answers 401 without a token, and with a made-up one', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => !PUBLIC_ROUTES[routeKey(x)])) {
      const none = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1') });
      if (none.status !== 401 || none.body.code !== Code.NOT_LOGGED_IN || none.body.data !== null) failures.push(`${routeKey(r)} no token → ${none.status} ${JSON.stringify(none.body).slice(0, 120)}`);
      const fake = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1'), headers: { 'x-token': 'f'.repeat(43) } });
      if (fake.status !== 401 || fake.body.code !== Code.TOKEN_INVALID) failures.push(`${routeKey(r)} made-up token → ${fake.status} ${JSON.stringify(fake.body).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('every route with a permission answers 403 to a user without it (and to demo-sub where it lacks it)', async () => {
    const failures: string[] = [];
    let subChecked = 0;
    const subPerms = (await ctx.call({ method: 'GET', url: '/api/user/info', headers: { 'x-token': sub } })).body.data.permissions as string[];
    for (const r of routes.filter((x) => x.config?.permission)) {
      const need = ([] as string[]).concat(r.config!.permission!);
      const res = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1'), headers: { 'x-token': noPerm } });
      if (res.status !== 403 || res.body.code !== Code.FORBIDDEN) failures.push(`${routeKey(r)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      if (!need.some((p) => subPerms.includes(p))) {
        subChecked++;
        const s = await ctx.call({ method: r.method, url: fillPath(r.url, () => '1'), headers: { 'x-token': sub } });
        if (s.status !== 403) failures.push(`${routeKey(r)} demo-sub → ${s.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(subChecked).toBeGreaterThan(0);
  });

  it("another merchant's ids answer 404 on every route that takes one", async () => {
    const failures: string[] = [];
    let checked = 0;
    let strictChecked = 0;
    for (const r of routes.filter((x) => !PUBLIC_ROUTES[routeKey(x)])) {
      const shape = (s: unknown) => ((s as z.ZodObject | undefined)?.shape ?? {}) as Record<string, unknown>;
      const params = Object.keys(shape(r.schema?.params)).filter((k) => ID_FIELDS.includes(k));
      const query = Object.keys(shape(r.schema?.querystring)).filter((k) => ID_FIELDS.includes(k));
      const body = Object.keys(shape(r.schema?.body)).filter((k) => ID_FIELDS.includes(k));
      const pathParams = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      if (pathParams.some((p) => !params.includes(p))) continue; // a path part that is not an id (e.g. a logo's file name)
      const fields = [...params, ...query, ...body];
      if (!fields.length) continue;
      const field = fields[0];
      for (const value of foreign[field]) {
        checked++;
        const probe = () =>
          ctx.call({
            method: r.method,
            url: fillPath(r.url, (p) => encodeURIComponent(foreign[p]?.includes(value) ? value : (foreign[p]?.[0] ?? '1'))),
            headers: { 'x-token': demo },
            ...(query.length ? { query: Object.fromEntries(query.map((k) => [k, value])) } : {}),
            ...(body.length ? { payload: { ...Object.fromEntries(body.map((k) => [k, value])), amount: '1', requestKey: 'sec-suite-1' } } : {}),
          });
        let res = await probe();
        if (res.status === 401) {
          // An earlier probe ended the demo session legitimately (an id of the other merchant's rows can
          // equal the id of one of demo's own sessions, e.g. 'sign out this session'): sign in again and
          // ask once more — a 401 must never stand in for the answer being checked.
          demo = await loginWithStepUp(ctx);
          res = await probe();
          if (res.status === 401) failures.push(`${routeKey(r)} ${field}=${value} → 401 with a fresh session`);
        }
        // Never served: no trace of the other merchant in the answer, never a server error; and for
        // the records of the route's own module, 404 as if absent (or 400 when the value is not
        // even of the route's shape, e.g. a gateway id where a number is expected).
        const text = JSON.stringify(res.body);
        const leaked = LEAK.find((x) => text.includes(x));
        const mustBe404 = Object.entries(strict).some(([prefix, values]) => r.url.startsWith(prefix) && values.includes(value));
        if (leaked || res.status >= 500 || (mustBe404 && res.status !== 404 && !(res.status === 400 && res.body.code === 400)))
          failures.push(`${routeKey(r)} ${field}=${value} → ${res.status}${leaked ? ` leaks ${leaked}` : ''} ${text.slice(0, 160)}`);
        if (mustBe404) strictChecked++;
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10);
    expect(strictChecked).toBeGreaterThanOrEqual(9);
  });
});
