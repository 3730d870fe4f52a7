import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALL_PERMISSIONS, Code, Perm, rolePermissions } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { addTxn } from '../txn/txn.fixtures';

/**
 * Issue 47, done-when: for random sequences of add / edit / role change / policy change / approval
 * by any of three administrators (and by the users they make), no money movement (a refund) or
 * bank-account change is ever approved by its requester, nor by an approver the requester created
 * or raised — directly or along a chain (A adds C, C adds D) — or whose creation or raise it
 * approved. The oracle is the test's own model of who created and raised whom, built from what
 * each call answered; the database's record of it is not read.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
function multipart(fields: Record<string, string>) {
  const boundary = '----prop' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="letter.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), PDF, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) };
}
const BANK = { merId: DEMO.subA, beneficiaryBank: 'China Merchants Bank', swiftCode: 'CMBCCNBS', accountName: 'Demo Trading', accountNumber: '6225880212345678', country: 'CN', currency: 'CNY' };

type RoleChoice = 'READONLY' | 'REFUNDS' | 'ADMIN' | 'DESK';
type Op =
  | { op: 'add'; actor: number; role: RoleChoice }
  | { op: 'edit'; actor: number; target: number; role: RoleChoice }
  | { op: 'role'; actor: number; refunds: boolean }
  | { op: 'policy'; actor: number; raise: boolean; limit: boolean; bank: boolean }
  | { op: 'approve'; actor: number; pick: number }
  | { op: 'refund'; actor: number }
  | { op: 'bank'; actor: number };

const actor = fc.nat({ max: 7 });
const roleChoice = fc.constantFrom<RoleChoice>('READONLY', 'REFUNDS', 'ADMIN', 'DESK');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('add' as const), actor, role: roleChoice }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('edit' as const), actor, target: fc.nat({ max: 7 }), role: roleChoice }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('role' as const), actor, refunds: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('policy' as const), actor, raise: fc.boolean(), limit: fc.boolean(), bank: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('approve' as const), actor, pick: fc.nat({ max: 7 }) }), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('refund' as const), actor }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('bank' as const), actor }), weight: 1 },
);

describe.each(DB_KINDS)('four eyes, property (issue 47, %s)', (kind) => {
  let ctx: TestCtx;
  let run = 0;
  const stats = { approvedMoney: 0, refusedGranted: 0, runs: 0 };
  const post = (url: string, token: string, body: Record<string, string | number>) => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token }, payload: f.payload });
  };
  const ADMINS = ['demo', 'prop.b', 'prop.c'];
  let ip = 0;
  /** Signs in as ctx.login does, each from its own address (the sign-in code's rate limit is per address). */
  const login = async (username: string): Promise<string> => {
    ctx.clock.advance(61_000);
    const remoteAddress = `10.47.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;
    const sent = await ctx.call({ method: 'POST', url: '/api/user/getEmailCode', remoteAddress, payload: { username } });
    if (sent.body.code !== 0) throw new Error(`getEmailCode: ${sent.body.msg}`);
    const res = await ctx.call({ method: 'POST', url: '/api/user/login', remoteAddress, payload: { username, password: DEMO.password, verifyCode: await ctx.lastCode() } });
    if (res.body.code !== 0) throw new Error(`login: ${res.body.msg}`);
    return res.body.data.token;
  };
  const ALL = `${DEMO.group},${DEMO.subA},${DEMO.subB}`;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    for (const u of ADMINS.slice(1)) {
      await ctx.db.query(
        `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, permissions)
         SELECT $1, password_hash, $2, mer_id, 'MAIN', true, 'ACTIVE', $3 FROM app_user WHERE username = 'demo'`,
        [u, `${u}@x.example`, ALL_PERMISSIONS],
      );
    }
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('no refund or bank change is ever approved by its requester or by one it created or raised', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 16 }), fc.boolean(), fc.boolean(), async (ops, raise0, bank0) => {
        run++;
        stats.runs++;
        // A fresh start: earlier runs' requests closed, a policy with a refund limit, a new named role.
        await ctx.db.query(`UPDATE approval_request SET status = 'EXPIRED' WHERE status = 'PENDING'`);
        await ctx.db.query(`UPDATE bank_change_request SET status = 'REJECTED' WHERE status IN ('PENDING', 'MERCHANT_APPROVAL')`);
        await ctx.db.query('DELETE FROM four_eyes_policy');
        await ctx.db.query(
          `INSERT INTO four_eyes_policy (mer_id, refund_limits, permission_raise, bank_change, expiry_hours, approver_cooldown_days, updated_at) VALUES ($1, '{"CNY": 10000}', $2, $3, 720, 30, now())`,
          [DEMO.group, raise0, bank0],
        );
        const tokens = new Map<string, string>();
        for (const u of ADMINS) tokens.set(u, await login(u));
        const desk = (await post('/api/role/save', tokens.get('demo')!, { name: `Desk ${run}`, permissions: Perm.txnList })).body.data.id as number;
        let deskPerms = [Perm.txnList as string];

        // The model: each user's permissions and administrator flag, and who created or raised it.
        const users = [...ADMINS];
        const perms = new Map<string, { p: Set<string>; admin: boolean; role: RoleChoice | null }>(ADMINS.map((u) => [u, { p: new Set(ALL_PERMISSIONS), admin: true, role: 'ADMIN' }]));
        const grantedBy = new Map<string, Set<string>>();
        const grant = (u: string, ...by: string[]) => {
          const s = grantedBy.get(u) ?? new Set<string>();
          for (const b of by) if (b !== u) s.add(b);
          grantedBy.set(u, s);
        };
        /** Everyone who created or raised `u`, along chains. */
        const closure = (u: string) => {
          const seen = new Set<string>();
          const todo = [...(grantedBy.get(u) ?? [])];
          while (todo.length) {
            const x = todo.pop()!;
            if (seen.has(x)) continue;
            seen.add(x);
            todo.push(...(grantedBy.get(x) ?? []));
          }
          return seen;
        };
        const permsOf = (role: RoleChoice) => (role === 'DESK' ? deskPerms : rolePermissions(role, ALL_PERMISSIONS));
        /** Applies a grant to `u` as the server does; a raise (more permissions, or administrator) is recorded. */
        const setGrant = (u: string, role: RoleChoice, by: string[]) => {
          const next = new Set(permsOf(role));
          const was = perms.get(u);
          const raised = !was || [...next].some((p) => !was.p.has(p)) || (role === 'ADMIN' && !was.admin);
          perms.set(u, { p: next, admin: role === 'ADMIN', role });
          if (raised) grant(u, ...by);
        };
        const pending: { id: number; requester: string; kind: 'add' | 'edit' | 'role' | 'policy' | 'refund' | 'bank'; apply?: (approver: string) => void }[] = [];
        const idOf = (msg: string) => Number(/#(\d+)/.exec(msg)![1]);
        const activate = async (u: string) => {
          await ctx.db.query(`UPDATE app_user SET password_hash = (SELECT password_hash FROM app_user WHERE username = 'demo'), status = 'ACTIVE' WHERE username = $1`, [u]);
          tokens.set(u, await login(u));
        };
        const who = (i: number) => users[i % users.length];
        const stepUp = (u: string) => post('/api/user/checkPassword', tokens.get(u)!, { password: DEMO.password });
        const violations: string[] = [];

        for (const [n, o] of ops.entries()) {
          const a = who(o.actor);
          const t = tokens.get(a)!;
          const roleBody = (role: RoleChoice): Record<string, string | number> => (role === 'DESK' ? { role: 'CUSTOM', roleId: desk } : { role });
          if (o.op === 'add') {
            const name = `p${run}u${n}`;
            const r = await post('/api/user/add', t, { userName: name, email: `${name}@x.example`, merIds: ALL, ...roleBody(o.role) });
            if (r.body.code === 0) {
              users.push(name);
              setGrant(name, o.role, [a]);
              await activate(name);
            } else if (r.body.code === Code.APPROVAL_REQUIRED) {
              pending.push({
                id: idOf(r.body.msg),
                requester: a,
                kind: 'add',
                apply: (approver) => {
                  users.push(name);
                  setGrant(name, o.role, [a, approver]);
                },
              });
            }
          } else if (o.op === 'edit') {
            const target = users[ADMINS.length + (o.target % Math.max(1, users.length - ADMINS.length))];
            if (!target || target === a) continue;
            const id = (await ctx.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [target])).rows[0].id;
            const r = await post('/api/user/update', t, { userId: id, merIds: ALL, ...roleBody(o.role) });
            if (r.body.code === 0) setGrant(target, o.role, [a]);
            else if (r.body.code === Code.APPROVAL_REQUIRED) pending.push({ id: idOf(r.body.msg), requester: a, kind: 'edit', apply: (approver) => setGrant(target, o.role, [a, approver]) });
          } else if (o.op === 'role') {
            const next = o.refunds ? [Perm.txnList, Perm.txnRefund] : [Perm.txnList];
            const apply = (by: string[]) => {
              deskPerms = next;
              for (const [u, g] of perms) if (g.role === 'DESK') setGrant(u, 'DESK', by);
            };
            const r = await post('/api/role/save', t, { roleId: desk, name: `Desk ${run}`, permissions: next.join(',') });
            if (r.body.code === 0) apply([a]);
            else if (r.body.code === Code.APPROVAL_REQUIRED) pending.push({ id: idOf(r.body.msg), requester: a, kind: 'role', apply: (approver) => apply([a, approver]) });
          } else if (o.op === 'policy') {
            const r = await post('/api/approval/policy', t, {
              merId: DEMO.group,
              refundLimits: o.limit ? 'CNY:100' : '',
              permissionRaise: String(o.raise),
              bankChange: String(o.bank),
              expiryHours: 720,
            });
            if (r.body.code === Code.APPROVAL_REQUIRED) pending.push({ id: idOf(r.body.msg), requester: a, kind: 'policy' });
          } else if (o.op === 'refund') {
            await stepUp(a);
            const p = await addTxn(ctx, { amount: 100000 });
            const r = await post('/api/txn/refund', t, { id: p.gwTransId, amount: '200.00' });
            if (r.body.data?.approvalId) pending.push({ id: r.body.data.approvalId, requester: a, kind: 'refund' });
          } else if (o.op === 'bank') {
            await ctx.db.query(`UPDATE bank_change_request SET status = 'REJECTED' WHERE status IN ('PENDING', 'MERCHANT_APPROVAL')`);
            const b = multipart(BANK);
            const r = await ctx.call({ method: 'POST', url: '/api/merchant/bankChangeRequest', headers: { ...b.headers, 'x-token': t }, payload: b.payload });
            if (r.body.data?.approvalId) pending.push({ id: r.body.data.approvalId, requester: a, kind: 'bank' });
          } else if (o.op === 'approve') {
            if (!pending.length) continue;
            const req = pending[o.pick % pending.length];
            await stepUp(a);
            const r = await post('/api/approval/approve', t, { id: req.id });
            if (r.body.code === Code.APPROVAL_OWN && req.requester !== a) stats.refusedGranted++;
            if (r.body.code !== 0 || r.body.data?.status !== 'APPROVED') continue;
            pending.splice(pending.indexOf(req), 1);
            if (req.kind === 'refund' || req.kind === 'bank') {
              stats.approvedMoney++;
              if (a === req.requester) violations.push(`${req.kind} #${req.id} approved by its requester ${a}`);
              if (closure(a).has(req.requester)) violations.push(`${req.kind} #${req.id} of ${req.requester} approved by ${a}, created or raised by it (${[...closure(a)].join(', ')})`);
            } else if (r.body.data.result?.code === 0) {
              req.apply?.(a);
              if (req.kind === 'add') await activate(users[users.length - 1]);
            }
          }
        }
        expect(violations, JSON.stringify(ops)).toEqual([]);
      }),
      {
        numRuns: 16,
        // Besides the random runs, the review's own walk-around (an administrator added at once, then
        // asked to approve its creator's refund) and its chain form (the added one adds another).
        examples: [
          [
            [
              { op: 'add', actor: 0, role: 'ADMIN' },
              { op: 'refund', actor: 0 },
              { op: 'approve', actor: 3, pick: 0 },
              { op: 'approve', actor: 1, pick: 0 },
            ],
            false,
            false,
          ],
          [
            [
              { op: 'add', actor: 0, role: 'ADMIN' },
              { op: 'add', actor: 3, role: 'REFUNDS' },
              { op: 'bank', actor: 0 },
              { op: 'approve', actor: 4, pick: 0 },
              { op: 'approve', actor: 3, pick: 0 },
            ],
            false,
            true,
          ],
          [
            [
              { op: 'add', actor: 0, role: 'ADMIN' },
              { op: 'approve', actor: 1, pick: 0 },
              { op: 'refund', actor: 1 },
              { op: 'approve', actor: 3, pick: 0 },
              { op: 'approve', actor: 2, pick: 0 },
            ],
            true,
            false,
          ],
        ],
      },
    );
    // The sequences did reach the interesting cases.
    expect(stats.approvedMoney, JSON.stringify(stats)).toBeGreaterThan(0);
    expect(stats.refusedGranted, JSON.stringify(stats)).toBeGreaterThan(0);
  }, 600_000);
});
