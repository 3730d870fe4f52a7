import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, isConcurrent, type TestCtx } from '../../../test/helpers';
import { readOutbox } from '../../plugins/mail';
import { addOperator, BANK, opsLogin } from './ops.fixtures';

/**
 * Approvals of bank-account change requests in the back office (issue 26): four eyes (the operator
 * who changed a request may not decide it), a reason, the requester told; roles; both engines.
 */
describe.each(DB_KINDS)('ops approvals (%s)', (kind) => {
  let ctx: TestCtx;
  let onboarding: string;
  let risk: string;
  let riskB: string;
  let reader: string;
  const h = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });

  async function request(merId = DEMO.subA): Promise<number> {
    await ctx.db.query(`UPDATE bank_change_request SET status = 'REJECTED' WHERE mer_id = $1 AND status = 'PENDING'`, [merId]);
    const { rows } = await ctx.db.query<{ id: number }>(
      `INSERT INTO bank_change_request (mer_id, beneficiary_bank, swift_code, account_name, account_number, country, currency, document_name, document_path, document_size, requested_by)
       SELECT $1, 'China Merchants Bank', 'CMBCCNBS', 'Demo Trading', '6225880112345678', 'CN', 'CNY', 'letter.pdf', 'bank-requests/x.pdf', 10, id FROM app_user WHERE username = 'demo' RETURNING id`,
      [merId],
    );
    return rows[0].id;
  }

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    const ob = await addOperator(ctx, 'ap-onboarding', 'onboarding');
    const a = await addOperator(ctx, 'ap-risk-a', 'risk');
    const b = await addOperator(ctx, 'ap-risk-b', 'risk');
    const ro = await addOperator(ctx, 'ap-reader', 'read-only');
    onboarding = await opsLogin(ctx, 'ap-onboarding', ob.secret);
    risk = await opsLogin(ctx, 'ap-risk-a', a.secret);
    riskB = await opsLogin(ctx, 'ap-risk-b', b.secret);
    reader = await opsLogin(ctx, 'ap-reader', ro.secret);
  });
  afterAll(() => ctx?.close());

  it('lists requests of every merchant; approve with a reason adds the account, tells the merchant and the requester', async () => {
    const id = await request();
    const list = await ctx.call({ method: 'GET', url: '/api/ops/bankChanges', headers: h(reader), query: { status: 'PENDING' } });
    expect(list.body.data[0]).toMatchObject({ id, merId: DEMO.subA, status: 'PENDING', requestedBy: 'demo', accountNumber: expect.not.stringContaining('12345678') });
    const ro = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/approve`, headers: h(reader), payload: { reason: 'Letter checked' } });
    expect(ro.status).toBe(403);
    const noReason = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/approve`, headers: h(risk), payload: { reason: '' } });
    expect(noReason.status).toBe(400);
    const ok = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/approve`, headers: h(risk), payload: { reason: 'Letter checked with the bank' } });
    expect(ok.body.code, ok.body.msg).toBe(0);
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', merId: DEMO.subA });
    const account = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_bank_account WHERE mer_id = $1 AND swift_code = 'CMBCCNBS'`, [DEMO.subA]);
    expect(account.rows[0].n).toBe(1);
    const notice = await ctx.db.query<{ content: Record<string, string> }>(`SELECT content FROM notice WHERE mer_id = $1 ORDER BY id DESC LIMIT 1`, [DEMO.subA]);
    expect(notice.rows[0].content.en).toContain('Letter checked with the bank');
    expect(notice.rows[0].content.ja).toContain('承認');
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to.includes('demo@demo-group.example') && m.text.includes('Letter checked'));
    expect(mail).toBeTruthy();
    const again = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/reject`, headers: h(riskB), payload: { reason: 'too late' } });
    expect([again.status, again.body.code]).toEqual([409, Code.CONFLICT]);
    const audited = await ctx.db.query<{ detail: { reason: string } }>(`SELECT detail FROM audit_log WHERE action = 'merchant.bank_change.approve' AND target = $1 AND operator_id IS NOT NULL`, [
      `bank-request:${id}`,
    ]);
    expect(audited.rows[0].detail.reason).toBe('Letter checked with the bank');
  });

  it('four eyes: the operator who changed a request cannot decide it; another one can', async () => {
    const id = await request();
    // The onboarding operator corrects the SWIFT code (audited before/after).
    const edit = await ctx.call({
      method: 'POST',
      url: `/api/ops/bankChanges/${id}`,
      headers: h(onboarding),
      payload: { ...BANK, swiftCode: 'CMBCCNBSXXX', accountName: 'Demo Trading', currency: 'CNY', country: 'CN' },
    });
    expect(edit.body.code, edit.body.msg).toBe(0);
    // Editing is onboarding's and deciding risk's: record risk operator A as the last editor to test the rule.
    await ctx.db.query(`UPDATE bank_change_request SET changed_by_operator = (SELECT id FROM ops_operator WHERE username = 'ap-risk-a') WHERE id = $1`, [id]);
    const self = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/approve`, headers: h(risk, 'zh'), payload: { reason: 'Looks right' } });
    expect([self.status, self.body.code]).toEqual([403, Code.FORBIDDEN]);
    expect(self.body.msg).toContain('四眼');
    const still = await ctx.db.query<{ status: string }>('SELECT status FROM bank_change_request WHERE id = $1', [id]);
    expect(still.rows[0].status).toBe('PENDING');
    const other = await ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/reject`, headers: h(riskB), payload: { reason: 'Account name does not match the company' } });
    expect(other.body.code, other.body.msg).toBe(0);
    const row = await ctx.db.query<{ status: string; decision_reason: string; swift_code: string }>('SELECT status, decision_reason, swift_code FROM bank_change_request WHERE id = $1', [id]);
    expect(row.rows[0]).toEqual({ status: 'REJECTED', decision_reason: 'Account name does not match the company', swift_code: 'CMBCCNBSXXX' });
    const edited = await ctx.db.query<{ detail: { before: { swiftCode: string }; after: { swiftCode: string } } }>(
      `SELECT detail FROM audit_log WHERE action = 'ops.bank_change.edit' AND target = $1`,
      [`bank-request:${id}`],
    );
    expect([edited.rows[0].detail.before.swiftCode, edited.rows[0].detail.after.swiftCode]).toEqual(['CMBCCNBS', 'CMBCCNBSXXX']);
  });

  it('the audit log across merchants: by merchant, action, actor and days; bad ranges refused', async () => {
    // The platform days from the test clock's (fixed when the app was made) to the database's (whose
    // now() stamps the entries): a run that crosses midnight in UTC+8 finds its entries on the later day.
    const day = new Date(ctx.clock.now().getTime() + 8 * 3600000).toISOString().slice(0, 10);
    const { rows: db } = await ctx.db.query<{ day: string }>(`SELECT to_char(now() AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day`);
    const q = (query: Record<string, string>) => ctx.call({ method: 'GET', url: '/api/ops/audit', headers: h(reader), query: { from: day, to: db[0].day, ...query } });
    const decided = await q({ merId: DEMO.subA, action: 'merchant.bank_change' });
    expect(decided.body.code, decided.body.msg).toBe(0);
    const actions = decided.body.data.content.map((e: { action: string; byOperator: boolean; merId: string }) => [e.action, e.byOperator, e.merId]);
    expect(actions).toContainEqual(['merchant.bank_change.approve', true, DEMO.subA]);
    expect(actions).toContainEqual(['merchant.bank_change.reject', true, DEMO.subA]);
    const byActor = await q({ actor: 'ap-onboarding', operatorsOnly: 'true' });
    expect(byActor.body.data.content.map((e: { action: string }) => e.action)).toContain('ops.bank_change.edit');
    // Another merchant's filter finds none of these decisions.
    const other = await q({ merId: DEMO.other, action: 'merchant.bank_change' });
    expect(other.body.data.totalElements).toBe(0);
    expect((await q({ from: '2026-02-30' })).status).toBe(400);
    expect((await q({ from: '2026-12-10', to: '2026-12-01' })).status).toBe(400);
    expect((await q({ from: '2026-01-01', to: '2026-12-01' })).status).toBe(400);
  });

  it.skipIf(!isConcurrent(kind))('two operators deciding at once: one decision, the other told it is no longer pending', async () => {
    const id = await request();
    const out = await Promise.all([
      ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/approve`, headers: h(risk), payload: { reason: 'ok by A' } }),
      ctx.call({ method: 'POST', url: `/api/ops/bankChanges/${id}/reject`, headers: h(riskB), payload: { reason: 'no by B' } }),
    ]);
    expect(out.map((r) => r.body.code).sort((x, y) => x - y)).toEqual([0, Code.CONFLICT]);
  });
});
