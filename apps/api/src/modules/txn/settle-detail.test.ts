import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, toMinor, type SettleBatchRow, type TransferRow } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { generateReportData } from '../report/report.fixtures';
import { formatMoney } from '@portal/contract';

const R = 'beginDate=2026-03-01&endDate=2026-03-31';

describe.each(DB_KINDS)('settlement detail and statements on %s', (kind) => {
  let ctx: TestCtx;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: '2026-03-02', days: 8, perDay: 14, seed: 11 });
    for (const u of Object.values(DEMO.users)) tokens[u] = (await ctx.login(u)).token;
  }, 300_000);
  afterAll(() => ctx?.close());
  const get = (url: string, user: string = DEMO.users.demo, lang = 'en') => ctx.call({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });
  const raw = (url: string, user: string = DEMO.users.demo, lang = 'en') => ctx.app.inject({ method: 'GET', url, headers: { 'x-token': tokens[user], 'accept-language': lang } });

  async function batches(q = R, user: string = DEMO.users.demo): Promise<SettleBatchRow[]> {
    const res = await get(`/api/txn/settleDetail?${q}&size=100`, user);
    expect(res.body.code).toBe(0);
    return res.body.data.content;
  }

  it('lists the settlement rows as batches, equal to the transfer report rows to the cent', async () => {
    const list = await batches();
    expect(list.length).toBeGreaterThan(3);
    const transfer = (await get(`/api/report/transfer/list?${R}&size=100`)).body.data.content as TransferRow[];
    expect(list).toHaveLength(transfer.length);
    for (const b of list) {
      const t = transfer.find((x) => x.txnSetDate === b.txnSetDate && x.clientid === b.clientid && x.reconBusiness === b.reconBusiness && x.merTxnSet === b.merTxnSet)!;
      expect(t).toBeTruthy();
      for (const k of ['reconSetAmount', 'servAmount', 'releasedAmount', 'realTransAmountBeforeTransFee', 'tranFee', 'realTransAmount', 'remitDate', 'reconSearchDate'] as const) {
        expect(b[k], k).toBe(t[k]);
      }
      expect(toMinor(b.settleAmount, b.merTxnSet) - toMinor(b.fee, b.merTxnSet)).toBe(toMinor(b.reconSetAmount, b.merTxnSet));
    }
  });

  it('filters by merchant, business line, currency; its transactions are the settle list of that date', async () => {
    const [b] = await batches(`${R}&merId=${DEMO.group}&busLine=CARD`);
    expect(b.clientid).toBe(DEMO.group);
    expect(b.reconBusiness).toBe('CARD');
    const settle = (await get(`/api/txn/settleList?beginDate=${b.txnSetDate}&endDate=${b.txnSetDate}&busLine=${b.reconBusiness}&setCur=${b.merTxnSet}&clientid=${b.clientid}`)).body.data;
    expect(settle.totalElements).toBe(b.txnCount);
    expect(settle.sum.net).toBe(b.reconSetAmount);
  });

  it('downloads the statement as PDF whose text carries the totals of the transfer row, in every language', async () => {
    const [b] = (await batches()).filter((x) => x.txnCount > 0 && x.servAmount !== '0.00');
    const q = `date=${b.txnSetDate}&merId=${b.clientid}&busLine=${b.reconBusiness}&setCur=${b.merTxnSet}`;
    for (const [lang, title] of [
      ['en', 'Settlement statement'],
      ['zh', '结算单'],
      ['ja', '精算明細書'],
      ['ko', '정산 명세서'],
    ] as const) {
      const res = await raw(`/api/txn/settleStatement?${q}&format=pdf`, DEMO.users.demo, lang);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent(title));
      const text = await pdfText(res.rawPayload);
      expect(text).toContain(title);
      const fmt = (v: string) => formatMoney(toMinor(v, b.merTxnSet), b.merTxnSet, lang);
      for (const v of [b.reconSetAmount, b.servAmount, b.realTransAmountBeforeTransFee, b.realTransAmount, b.fee]) expect(text).toContain(fmt(v));
    }
  });

  it('downloads the statement as CSV: lines sum to the batch, totals equal the row', async () => {
    const [b] = (await batches()).filter((x) => x.txnCount > 1);
    const res = await raw(`/api/txn/settleStatement?date=${b.txnSetDate}&merId=${b.clientid}&busLine=${b.reconBusiness}&setCur=${b.merTxnSet}&format=csv`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\ufeff/, '').split('\r\n');
    const head = lines.findIndex((l) => l.startsWith('Order number'));
    const blank = lines.indexOf('', head);
    const txns = lines.slice(head + 1, blank).map((l) => l.split(','));
    expect(txns).toHaveLength(b.txnCount);
    const net = txns.reduce((s, c) => s + toMinor(c[8], b.merTxnSet), 0);
    expect(net).toBe(toMinor(b.reconSetAmount, b.merTxnSet));
    const total = (label: string) => lines.find((l) => l.startsWith(`${label},`))!.split(',')[1];
    expect(total('Total settlement amount')).toBe(b.reconSetAmount);
    expect(total('Reserve withheld')).toBe(b.servAmount);
    expect(total('Net transfer amount')).toBe(b.realTransAmount);
    expect(total('Transfer fee')).toBe(b.tranFee);
    // the statement names the batch's own merchant (the statement's join), not another one
    const name = (await ctx.db.query<{ name: string }>('SELECT name FROM merchant WHERE mer_id = $1', [b.clientid])).rows[0].name;
    expect(lines.find((l) => l.startsWith('Merchant,'))).toBe(`Merchant,${b.clientid} ${name}`);
  });

  it("refuses bad input in the caller's language", async () => {
    const res = await get('/api/txn/settleDetail?beginDate=2026-02-30&endDate=2026-03-31', DEMO.users.demo, 'ko');
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/잘못된 요청/);
    expect((await get('/api/txn/settleDetail?beginDate=2026-03-31&endDate=2026-03-01')).status).toBe(400);
    expect((await get('/api/txn/settleDetail?beginDate=2026-03-01&endDate=2026-03-31&setCur=usd')).status).toBe(400);
    expect((await raw('/api/txn/settleStatement?date=2026-03-05&merId=1&busLine=CARD&setCur=HKD')).statusCode).toBe(400);
    expect((await raw(`/api/txn/settleStatement?date=2026-03-05&merId=${DEMO.group}&busLine=CARD&setCur=HKD&format=docx`)).statusCode).toBe(400);
  });

  it("shows a sub-merchant user only its own batches; another merchant's statement answers 404", async () => {
    const own = await batches(R, DEMO.users.sub);
    expect(own.every((b) => b.clientid === DEMO.subA)).toBe(true);
    const [g] = await batches(`${R}&merId=${DEMO.group}`);
    const q = `date=${g.txnSetDate}&merId=${g.clientid}&busLine=${g.reconBusiness}&setCur=${g.merTxnSet}`;
    const res = await raw(`/api/txn/settleStatement?${q}`, DEMO.users.other);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(Code.NOT_FOUND);
    expect(await batches(`${R}&merId=${DEMO.group}`, DEMO.users.other)).toEqual([]);
    // a batch that does not exist
    expect((await raw(`/api/txn/settleStatement?date=2020-01-01&merId=${DEMO.group}&busLine=CARD&setCur=HKD`)).statusCode).toBe(404);
  });
});
