import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { generateReportData } from '../report/report.fixtures';
import { decideBankRequest } from './bank-request.service';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A multipart body by hand (inject has no FormData encoder for files). */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; buf: Buffer }) {
  const boundary = '----merchtest' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.buf, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) };
}

const NEW_BANK = {
  merId: DEMO.subA,
  beneficiaryBank: 'China Merchants Bank',
  swiftCode: 'cmbccnbs',
  bankAddress: '7088 Shennan Blvd, Shenzhen',
  accountName: 'Demo Trading (Shanghai) Co., Ltd',
  accountNumber: '6225880212345678',
  country: 'cn',
  currency: 'CNY',
};

describe.each(DB_KINDS)('merchant list and detail on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: '2026-03-01', days: 10, perDay: 12, seed: 7 });
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
  }, 300_000);
  afterAll(() => ctx.close());
  const get = (url: string, user: string = DEMO.users.demo, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });

  describe('GET /merchant/list', () => {
    it('lists the group first, then its sub-merchants, with attribute, status, limit and approval', async () => {
      const res = await get('/api/merchant/list?page=0&size=10');
      expect(res.body.code).toBe(0);
      expect(res.body.data.totalElements).toBe(3);
      const [g, a, b] = res.body.data.content;
      expect([g.merId, a.merId, b.merId]).toEqual([DEMO.group, DEMO.subA, DEMO.subB]);
      expect(g).toMatchObject({ attribute: 'GROUP', parentId: null, status: 'ENABLED', defaultCurrency: 'HKD', dailyLimit: '5000000.00', approvalStatus: 'APPROVED' });
      expect(b).toMatchObject({ attribute: 'SUB', parentId: DEMO.group, defaultCurrency: 'JPY', dailyLimit: '100000000' });
      expect(g.approvedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it('searches by id or name and by attribute, and pages', async () => {
      expect((await get('/api/merchant/list?keyword=Online')).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.subB]);
      expect((await get(`/api/merchant/list?keyword=${DEMO.subA.slice(-3)}`)).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.subA]);
      expect((await get('/api/merchant/list?attribute=SUB')).body.data.totalElements).toBe(2);
      expect((await get('/api/merchant/list?keyword=%25')).body.data.totalElements).toBe(0);
      const p1 = (await get('/api/merchant/list?page=1&size=5')).body.data;
      expect(p1).toEqual({ content: [], totalElements: 3 });
    });

    it("refuses bad input with a message in the caller's language", async () => {
      const bad = await get('/api/merchant/list?size=7', DEMO.users.demo, 'zh');
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toMatch(/请求参数错误/);
      expect((await get('/api/merchant/list?attribute=BOSS')).status).toBe(400);
      expect((await get('/api/merchant/list?keyword=a%07b')).status).toBe(400);
    });

    it('gives a sub-merchant user and another merchant only their own', async () => {
      expect((await get('/api/merchant/list', DEMO.users.sub)).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.subA]);
      expect((await get('/api/merchant/list', DEMO.users.other)).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.other]);
    });

    it('answers GET /merchant (params) as spec §7 lists it: the same list, rules and scope', async () => {
      expect((await get('/api/merchant?attribute=SUB')).body.data).toEqual((await get('/api/merchant/list?attribute=SUB')).body.data);
      expect((await get('/api/merchant?keyword=Online')).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.subB]);
      expect((await get('/api/merchant', DEMO.users.other)).body.data.content.map((m: { merId: string }) => m.merId)).toEqual([DEMO.other]);
      expect((await get('/api/merchant?size=7')).status).toBe(400);
    });
  });

  describe('GET /merchant/{id}', () => {
    it('shows the business information with contacts and transfer terms', async () => {
      const d = (await get(`/api/merchant/${DEMO.subB}`)).body.data;
      expect(d).toMatchObject({
        merId: DEMO.subB,
        webStoreName: 'Demo Online',
        corporationName: 'Demo E-Commerce KK',
        country: 'JP',
        city: 'Tokyo',
        postcode: '100-0005',
        mcc: '5734',
        legalRegNo: 'JP-0100-01',
        merchantUrl: 'https://shop.demo-group.example',
        applicationDate: '2024-06-01',
        locked: false,
        acquirer: 'MUFG',
        principal: { name: 'Sato Yuki', email: 'sato@demo-group.example', tel: '+81 3 5555 0301' },
        operation: { name: 'Kim Min-ji' },
      });
      expect(d.transfer).toContainEqual({ busLine: 'CARD', currency: 'USD', threshold: '100.00', fee: '15.00', period: 'D' });
    });

    it('answers 404 for another merchant and 400 for a malformed id', async () => {
      const other = await get(`/api/merchant/${DEMO.other}`);
      expect(other.status).toBe(404);
      expect(other.body.code).toBe(Code.NOT_FOUND);
      expect((await get(`/api/merchant/${DEMO.group}`, DEMO.users.sub)).status).toBe(404);
      expect((await get('/api/merchant/12345')).status).toBe(400);
    });

    it('lets the read-only sub-user read its own merchant', async () => {
      expect((await get(`/api/merchant/${DEMO.subA}`, DEMO.users.sub)).body.data.merName).toBe('Demo Store Shanghai');
    });
  });

  describe('GET /merchant/listMerchantFee', () => {
    it("gives the schedule per business line with the merchant's channels, rate and effective date", async () => {
      const rows = (await get(`/api/merchant/listMerchantFee?merId=${DEMO.group}`)).body.data.content;
      const card = rows.find((r: { busLine: string }) => r.busLine === 'CARD');
      expect(card).toMatchObject({
        channels: ['CARD'],
        rate: '3.00',
        rateBp: 300,
        fixedFee: '1.00',
        currency: 'HKD',
        reserveRate: '10.00',
        reserveHoldDays: 7,
        effectiveFrom: '2024-03-01',
        effectiveTo: null,
      });
      expect(rows.find((r: { busLine: string }) => r.busLine === 'AP').channels).toEqual(['AP']);
    });
    it('refuses a bad or foreign merId', async () => {
      expect((await get('/api/merchant/listMerchantFee')).status).toBe(400);
      expect((await get(`/api/merchant/listMerchantFee?merId=${DEMO.other}`)).status).toBe(404);
      expect((await get(`/api/merchant/listMerchantFee?merId=${DEMO.subB}`, DEMO.users.sub)).status).toBe(404);
    });
  });

  describe('GET /merchant/detailDeposit/{id}', () => {
    it('shows held − released = balance per line, the same totals as the reserve rows', async () => {
      const d = (await get(`/api/merchant/detailDeposit/${DEMO.group}`)).body.data;
      const { rows } = await ctx.db.query<{ bus_line: string; held: number; released: number }>(
        `SELECT bus_line, sum(amount)::bigint AS held, coalesce(sum(amount) FILTER (WHERE released), 0)::bigint AS released
           FROM reserve WHERE mer_id = $1 AND amount > 0 GROUP BY bus_line`,
        [DEMO.group],
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        const line = d.lines.find((l: { busLine: string }) => l.busLine === r.bus_line);
        expect(line.held).toBe((r.held / 100).toFixed(2));
        expect(Math.round(Number(line.balance) * 100)).toBe(r.held - r.released);
      }
      for (const n of d.nextReleases) expect(n.releaseDate >= n.txnSetDate).toBe(true);
    });
    it('answers 404 for another merchant, 400 for a bad id', async () => {
      expect((await get(`/api/merchant/detailDeposit/${DEMO.other}`)).status).toBe(404);
      expect((await get('/api/merchant/detailDeposit/abc')).status).toBe(400);
    });
  });

  describe('bank accounts and the change request', () => {
    it('masks account numbers to the last four', async () => {
      const res = (await get(`/api/merchant/listMerchantBank?merId=${DEMO.group}`)).body.data;
      expect(res.totalElements).toBe(2);
      expect(res.content[0]).toMatchObject({
        beneficiaryBank: 'The Hongkong and Shanghai Banking Corporation',
        swiftCode: 'HSBCHKHHHKH',
        accountNumber: '•••• 9001',
        currency: 'HKD',
        isDefault: true,
      });
      expect(JSON.stringify(res)).not.toContain('004123456789001');
      expect((await get(`/api/merchant/listMerchantBank?merId=${DEMO.other}`)).status).toBe(404);
    });

    const post = (user: string, fields: Record<string, string>, file: { name: string; type: string; buf: Buffer } | null = { name: 'letter.pdf', type: 'application/pdf', buf: PDF }, lang = 'en') => {
      const body = multipart(fields, file ?? undefined);
      return ctx.call({ method: 'POST', url: '/api/merchant/bankChangeRequest', headers: { 'x-token': tokens[user], 'accept-language': lang, ...body.headers }, payload: body.payload });
    };

    it('refuses bad input and changes nothing', async () => {
      const before = await ctx.db.query('SELECT count(*)::int AS n FROM bank_change_request');
      const noDoc = await post(DEMO.users.demo, NEW_BANK, null, 'ja');
      expect(noDoc.status, JSON.stringify(noDoc.body)).toBe(400);
      expect(noDoc.body.msg).toMatch(/証明書類/);
      const truncated = await ctx.call({
        method: 'POST',
        url: '/api/merchant/bankChangeRequest',
        headers: { 'x-token': tokens[DEMO.users.demo], 'content-type': 'multipart/form-data; boundary=xx' },
        payload: '--xx\r\nContent-Disposition: form-data; name="merId"\r\n\r\n1',
      });
      expect(truncated.status).toBe(400);
      expect((await post(DEMO.users.demo, NEW_BANK, { name: 'x.exe', type: 'application/octet-stream', buf: Buffer.from([0, 1, 2, 3]) })).status).toBe(400);
      const badSwift = await post(DEMO.users.demo, { ...NEW_BANK, swiftCode: 'NOPE' });
      expect(badSwift.status).toBe(400);
      expect(badSwift.body.msg).toContain('swiftCode');
      expect((await post(DEMO.users.demo, { ...NEW_BANK, accountName: 'a\u0001b' })).status).toBe(400);
      expect((await post(DEMO.users.demo, { ...NEW_BANK, accountId: '999999' })).status).toBe(404);
      expect((await ctx.db.query('SELECT count(*)::int AS n FROM bank_change_request')).rows[0]).toEqual(before.rows[0]);
    });

    it('is refused to the read-only sub-user and for another merchant', async () => {
      expect((await post(DEMO.users.sub, NEW_BANK)).status).toBe(403);
      expect((await post(DEMO.users.demo, { ...NEW_BANK, merId: DEMO.other })).status).toBe(404);
    });

    it('stays pending until approved by the back office, both steps audited; one pending at a time', async () => {
      const [a, b] = await Promise.all([post(DEMO.users.demo, NEW_BANK), post(DEMO.users.demo, NEW_BANK)]);
      const codes = [a.body.code, b.body.code].sort();
      expect(codes).toEqual([0, Code.BAD_REQUEST]);
      const created = (a.body.code === 0 ? a : b).body.data;
      expect(created).toMatchObject({ status: 'PENDING', swiftCode: 'CMBCCNBS', country: 'CN', accountNumber: '•••• 5678', documentName: 'letter.pdf', requestedBy: 'demo' });
      let list = (await get(`/api/merchant/listMerchantBank?merId=${DEMO.subA}`)).body.data;
      expect(list.content).toHaveLength(1);
      expect(list.requests[0].status).toBe('PENDING');

      const decided = await decideBankRequest(ctx.db, created.id, 'APPROVED', 'back-office', ctx.clock.now());
      expect(decided.status).toBe('APPROVED');
      await expect(decideBankRequest(ctx.db, created.id, 'APPROVED', 'back-office', ctx.clock.now())).rejects.toThrow(/not pending/);
      list = (await get(`/api/merchant/listMerchantBank?merId=${DEMO.subA}`)).body.data;
      expect(list.content).toHaveLength(2);
      expect(list.content.find((x: { swiftCode: string }) => x.swiftCode === 'CMBCCNBS').accountNumber).toBe('•••• 5678');
      expect(list.requests[0]).toMatchObject({ status: 'APPROVED' });

      const audit = await ctx.db.query<{ action: string; target: string; detail: { account: string } }>(`SELECT action, target, detail FROM audit_log WHERE target = $1 ORDER BY id`, [
        `bank-request:${created.id}`,
      ]);
      expect(audit.rows.map((r) => r.action)).toEqual(['merchant.bank_change.request', 'merchant.bank_change.approve']);
      expect(JSON.stringify(audit.rows)).not.toContain('6225880212345678');
    });
  });
});
