import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, form, isConcurrent, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { addOperator, opsLogin } from '../ops/ops.fixtures';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
function multipart(fields: Record<string, string>) {
  const boundary = '----fourbank' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="letter.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), PDF, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) };
}
const BANK = { merId: DEMO.subA, beneficiaryBank: 'China Merchants Bank', swiftCode: 'CMBCCNBS', accountName: 'Demo Trading', accountNumber: '6225880212345678', country: 'CN', currency: 'CNY' };

/**
 * Four eyes on bank-account change requests (issue 28, decision 049), both engines: with the policy
 * on, a request waits for a second main user holding merchant:bank:change (not its requester, not a
 * user without the permission, not another merchant's), expires, is rejected (the requester told)
 * or approved — and only then does the provider's back office see it. Parallel approvals on
 * PostgreSQL hand it over once. A failure while recording leaves nothing behind.
 */
describe.each(DB_KINDS)('team: four eyes on bank changes (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let bankA: string;
  let bankB: string;
  let noBank: string;
  let subBank: string;
  let other: string;
  let opSecret: string;
  const get = (url: string, token: string) => ctx.call({ method: 'GET', url, headers: { 'x-token': token } });
  const post = (url: string, token: string, body: Record<string, string | number>, lang = 'en') => {
    const f = form(body);
    return ctx.call({ method: 'POST', url, headers: { ...f.headers, 'x-token': token, 'accept-language': lang }, payload: f.payload });
  };
  const ask = (token: string, lang = 'en') => {
    const b = multipart(BANK);
    return ctx.call({ method: 'POST', url: '/api/merchant/bankChangeRequest', headers: { ...b.headers, 'x-token': token, 'accept-language': lang }, payload: b.payload });
  };
  const policy = (on: boolean, hours = 24) => post('/api/approval/policy', demo, { merId: DEMO.group, refundLimits: '', permissionRaise: 'false', bankChange: String(on), expiryHours: hours });
  const bankRow = async (id: number) =>
    (
      await ctx.db.query<{ status: string; approval_id: number | null; document_path: string; decision_reason: string | null }>(
        'SELECT status, approval_id, document_path, decision_reason FROM bank_change_request WHERE id = $1',
        [id],
      )
    ).rows[0];
  /** Signed in anew each time: the test clock moves past an operator's session. */
  const opToken = () => opsLogin(ctx, 'fb-risk', opSecret);
  const opsSees = async (id: number) =>
    ((await ctx.call({ method: 'GET', url: '/api/ops/bankChanges', headers: { 'x-token': await opToken() } })).body.data as { id: number }[]).some((r) => r.id === id);
  const docExists = (rel: string) => fs.existsSync(path.join(ctx.config.dataDir, 'files', 'bank-requests', rel));
  /** Main users of the group copied from demo, with the given permissions. */
  const addMain = async (username: string, permissions: string[], userType = 'MAIN') => {
    await ctx.db.query(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, status, permissions)
       SELECT $1, password_hash, $2, mer_id, $4, false, 'ACTIVE', $3 FROM app_user WHERE username = 'demo'`,
      [username, `${username}@x.example`, permissions, userType],
    );
    return (await ctx.login(username)).token;
  };
  /** Closes what a test left open, so the next can ask again (one open request per merchant). */
  const clear = () => ctx.db.query(`UPDATE bank_change_request SET status = 'REJECTED' WHERE status IN ('PENDING', 'MERCHANT_APPROVAL')`);

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login()).token;
    bankA = await addMain('bank.a', [Perm.merchantList, Perm.merchantDetail, Perm.merchantBankChange]);
    bankB = await addMain('bank.b', [Perm.merchantList, Perm.merchantDetail, Perm.merchantBankChange]);
    noBank = await addMain('no.bank', [Perm.merchantList, Perm.merchantDetail, Perm.txnRefund]);
    subBank = await addMain('sub.bank', [Perm.merchantList, Perm.merchantBankChange], 'SUB');
    other = (await ctx.login(DEMO.users.other)).token;
    opSecret = (await addOperator(ctx, 'fb-risk', 'risk')).secret;
  }, 180_000);
  afterAll(async () => ctx?.close());

  it('policy off: the request goes to the provider at once, as before', async () => {
    expect((await policy(false)).body.data).toMatchObject({ bankChange: false });
    const r = await ask(bankA);
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.data).toMatchObject({ status: 'PENDING', approvalId: null });
    expect(await opsSees(r.body.data.id)).toBe(true);
    expect((await ctx.db.query(`SELECT id FROM approval_request WHERE kind = 'bank_change'`)).rows).toHaveLength(0);
    await clear();
  });

  it('policy on: the request waits, unseen by the back office; approvers mailed; the requester, a user without the permission and another merchant cannot approve; a second user hands it over', async () => {
    const saved = await policy(true);
    expect(saved.body.data).toMatchObject({ bankChange: true });
    expect((await get(`/api/approval/policy?merId=${DEMO.subA}`, demo)).body.data.bankChange).toBe(true);
    const r = await ask(bankA, 'ko');
    expect(r.body.code, r.body.msg).toBe(0);
    expect(r.body.msg).toContain('승인');
    const bankId = r.body.data.id as number;
    const id = r.body.data.approvalId as number;
    expect(r.body.data.status).toBe('MERCHANT_APPROVAL');
    const row = await bankRow(bankId);
    expect(row).toMatchObject({ status: 'MERCHANT_APPROVAL', approval_id: id });
    expect(docExists(row.document_path)).toBe(true);
    expect(await opsSees(bankId)).toBe(false);
    // the back office cannot decide it either (not pending at the provider)
    expect((await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${bankId}/approve`, headers: { 'x-token': await opToken() }, payload: { reason: 'looks fine' } })).status).toBe(409);
    // a second request while one waits: refused
    expect((await ask(bankB)).status).toBe(409);
    // the approvers (holders of merchant:bank:change who reach the merchant) are mailed, not the requester nor a user without it
    const mails = (await readOutbox(ctx.outbox)).filter((m) => m.subject.includes(`#${id}`));
    expect(mails.map((m) => m.to)).toEqual(expect.arrayContaining(['bank.b@x.example']));
    expect(mails.map((m) => m.to)).not.toContain('bank.a@x.example');
    expect(mails.map((m) => m.to)).not.toContain('no.bank@x.example');
    expect(
      mails.map((m) => m.to),
      'a sub-user cannot decide a bank change',
    ).not.toContain('sub.bank@x.example');
    expect(mails[0].subject).toContain('은행 계좌 변경');
    expect(mails[0].text).not.toContain('6225880212345678');
    // the lists
    expect((await get('/api/approval/list?page=0&size=10', bankB)).body.data.content[0]).toMatchObject({
      id,
      kind: 'bank_change',
      canDecide: true,
      summary: { bankRequest: bankId, account: '•••• 5678' },
    });
    expect((await get('/api/approval/list?page=0&size=10', bankA)).body.data.content[0]).toMatchObject({ id, canDecide: false });
    expect((await get('/api/approval/list?page=0&size=10', other)).body.data.content).toEqual([]);
    // who cannot
    expect((await post('/api/approval/approve', bankA, { id })).body.code).toBe(Code.APPROVAL_OWN);
    expect((await post('/api/approval/approve', noBank, { id })).status).toBe(403);
    expect((await get('/api/approval/list?page=0&size=10', subBank)).body.data.content[0]).toMatchObject({ id, canDecide: false });
    expect((await post('/api/approval/approve', subBank, { id })).status).toBe(403);
    expect((await post('/api/approval/approve', other, { id })).status).toBe(404);
    expect((await post('/api/approval/approve', (await ctx.login(DEMO.users.sub)).token, { id })).status).toBe(403);
    expect((await bankRow(bankId)).status).toBe('MERCHANT_APPROVAL');
    // the second user
    const ok = await post('/api/approval/approve', bankB, { id });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', decidedBy: 'bank.b', result: { code: 0, bankRequestId: bankId } });
    expect(await bankRow(bankId)).toMatchObject({ status: 'PENDING' });
    expect(docExists(row.document_path)).toBe(true);
    expect(await opsSees(bankId)).toBe(true);
    expect((await post('/api/approval/approve', demo, { id })).body.code).toBe(Code.APPROVAL_DECIDED);
    // the provider's own four eyes still decide it
    const decided = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${bankId}/approve`, headers: { 'x-token': await opToken() }, payload: { reason: 'Letter checked' } });
    expect(decided.body.code, decided.body.msg).toBe(0);
    const trail = await ctx.db.query<{ action: string; username: string | null }>(`SELECT action, username FROM audit_log WHERE target = $1 OR target = $2 ORDER BY id`, [
      `bank-request:${bankId}`,
      `approval #${id}`,
    ]);
    expect(trail.rows.map((t) => `${t.action} ${t.username}`)).toEqual([
      'merchant.bank_change.await_approval bank.a',
      'approval.request bank.a',
      'approval.approve bank.b',
      'merchant.bank_change.merchant_approve bank.b',
      'merchant.bank_change.approve back-office:fb-risk',
    ]);
  });

  it('rejection closes it (never at the provider) and tells the requester; expiry closes it too', async () => {
    await policy(true, 2);
    const r = await ask(bankA, 'ja');
    const bankId = r.body.data.id as number;
    const id = r.body.data.approvalId as number;
    const rej = await post('/api/approval/reject', bankB, { id, note: 'wrong account holder' });
    expect(rej.body.data).toMatchObject({ status: 'REJECTED' });
    expect(await bankRow(bankId)).toMatchObject({ status: 'MERCHANT_REJECTED', decision_reason: 'wrong account holder' });
    expect(await opsSees(bankId)).toBe(false);
    const told = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('bank.a@x.example') && m.subject.includes(`#${id}`));
    expect(told?.subject).toContain('却下');
    expect(told?.text).toContain('wrong account holder');
    expect((await get(`/api/merchant/listMerchantBank?merId=${DEMO.subA}`, bankA)).body.data.requests[0]).toMatchObject({ id: bankId, status: 'MERCHANT_REJECTED' });
    // expiry: after the policy's hours, approving fails and the request is closed EXPIRED
    const e = await ask(bankA);
    const eId = e.body.data.approvalId as number;
    ctx.clock.advance(2 * 3_600_000 + 1000);
    bankB = (await ctx.login('bank.b')).token;
    expect((await post('/api/approval/approve', bankB, { id: eId })).body.code).toBe(Code.APPROVAL_EXPIRED);
    expect(await bankRow(e.body.data.id)).toMatchObject({ status: 'EXPIRED' });
    expect(await opsSees(e.body.data.id)).toBe(false);
    // one expired by the list's sweep (nobody decided it)
    const s = await ask((bankA = (await ctx.login('bank.a')).token));
    ctx.clock.advance(2 * 3_600_000 + 1000);
    bankB = (await ctx.login('bank.b')).token;
    await get('/api/approval/list?page=0&size=10', bankB);
    expect(await bankRow(s.body.data.id)).toMatchObject({ status: 'EXPIRED' });
    const audits = await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'merchant.bank_change.expire'`);
    expect(audits.rows).toHaveLength(2);
    bankA = (await ctx.login('bank.a')).token;
  });

  it('a failure while recording leaves no request, no approval, no audit and no document', async () => {
    await policy(true);
    const count = async () =>
      (
        await ctx.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM bank_change_request) + (SELECT count(*) FROM approval_request) + (SELECT count(*) FROM audit_log WHERE action LIKE 'merchant.bank_change.%') AS n`,
        )
      ).rows[0].n;
    const dir = path.join(ctx.config.dataDir, 'files', 'bank-requests');
    const files = fs.readdirSync(dir).length;
    const before = await count();
    await ctx.db.query(`ALTER TABLE approval_request ADD CONSTRAINT test_refuse_bank CHECK (kind <> 'bank_change') NOT VALID`);
    try {
      expect((await ask(bankA)).status).toBe(500);
    } finally {
      await ctx.db.query('ALTER TABLE approval_request DROP CONSTRAINT test_refuse_bank');
    }
    expect(await count()).toBe(before);
    expect(fs.readdirSync(dir).length).toBe(files);
  });

  it.skipIf(!isConcurrent(kind))('four approvals at once: one hands it to the provider, the others find it decided', async () => {
    demo = (await ctx.login()).token;
    bankA = (await ctx.login('bank.a')).token;
    bankB = (await ctx.login('bank.b')).token;
    await clear();
    await policy(true);
    const c = await addMain('bank.c', [Perm.merchantBankChange]);
    const r = await ask(bankA);
    const id = r.body.data.approvalId as number;
    const results = await Promise.all([bankB, c, demo, bankB].map((t) => post('/api/approval/approve', t, { id })));
    expect(
      results.map((x) => x.body.code).sort((a, b) => a - b),
      JSON.stringify(results.map((x) => x.body.msg)),
    ).toEqual([0, Code.APPROVAL_DECIDED, Code.APPROVAL_DECIDED, Code.APPROVAL_DECIDED]);
    expect(await bankRow(r.body.data.id)).toMatchObject({ status: 'PENDING' });
    const moved = await ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'merchant.bank_change.merchant_approve' AND target = $1`, [`bank-request:${r.body.data.id}`]);
    expect(moved.rows).toHaveLength(1);
  });
});
