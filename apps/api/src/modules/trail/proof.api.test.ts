/** The payout proof's endpoints (issue 49 §1): success, bad input, missing permission, another merchant's transfer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm, toMinor } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { pdfText } from '../../../test/pdf-text';
import { createApiKey, v1 } from '../apikey/apikey.fixtures';
import { generateReportData } from '../report/report.fixtures';

const auth = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });

describe.each(DB_KINDS)('payout proof endpoints (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let id: string;
  let otherId: string;
  const url = (x: string) => `/api/trail/transfer/${encodeURIComponent(x)}/proof`;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: '2026-09-01', days: 10, perDay: 24, seed: 5 });
    demo = (await ctx.login()).token;
    const pick = async (mer: string[]) =>
      (
        await ctx.db.query<{ id: string }>(
          `SELECT txn_set_date::text || '.' || mer_id || '.' || bus_line || '.' || set_cur AS id FROM settlement
          WHERE trans_amount > 0 AND mer_id = ANY($1) ORDER BY txn_count DESC, txn_set_date DESC LIMIT 1`,
          [mer],
        )
      ).rows[0].id;
    id = await pick([DEMO.group, DEMO.subA, DEMO.subB]);
    otherId = await pick([DEMO.other]);
  }, 240_000);
  afterAll(() => ctx?.close());

  it('answers the lines, which sum to the transfer; each line opens its rows with their total', async () => {
    const r = await ctx.call({ method: 'GET', url: url(id), headers: auth(demo) });
    expect(r.body.code, r.body.msg).toBe(0);
    const p = r.body.data;
    const cur = p.transfer.currency;
    expect(p.balanced).toBe(true);
    const sum = p.lines.reduce((s: number, l: { amount: string }) => s + toMinor(l.amount, cur), 0);
    expect(sum).toBe(toMinor(p.transfer.amount, cur));
    expect(p.lines.map((l: { source: string }) => l.source)).toEqual(expect.arrayContaining(['settled', 'refunds', 'fees', 'reserveHeld', 'reserveReleased', 'transferFee']));
    const settled = p.lines.find((l: { source: string; count: number }) => l.source === 'settled' && l.count > 2);
    expect(settled.txnCurrency).toBeTruthy();
    const rows = await ctx.call({ method: 'GET', url: `${url(id)}/rows`, headers: auth(demo), query: { line: settled.key, page: '0', size: '10' } });
    expect(rows.body.code, rows.body.msg).toBe(0);
    expect(rows.body.data.totalElements).toBe(settled.count);
    expect(rows.body.data.sum).toBe(settled.amount);
    expect(rows.body.data.content[0].txnId).toBeTruthy();
    // The reader's language in the labels.
    const zh = await ctx.call({ method: 'GET', url: url(id), headers: auth(demo, 'zh') });
    expect(zh.body.data.lines.map((l: { label: string }) => l.label)).toContain('转账手续费');
  });

  it('exports the proof as CSV and PDF (language, currency and zone stated; every row beneath its line)', async () => {
    const csv = await ctx.app.inject({ method: 'GET', url: `${url(id)}/export`, headers: auth(demo, 'ja'), query: { format: 'csv', timeZone: 'Asia/Tokyo' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const text = csv.body;
    expect(text).toContain('入金の証明');
    expect(text).toContain('Asia/Tokyo');
    expect(text).toContain('銀行への送金額');
    const p = (await ctx.call({ method: 'GET', url: url(id), headers: auth(demo) })).body.data;
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    const last = lines.filter(Boolean).at(-1)!.split(',');
    expect(last.at(-1)).toBe(p.transfer.amount);
    // Re-added by hand: the rows beneath each line sum to it.
    const cur = p.transfer.currency;
    const dataRows = lines
      .slice(lines.findIndex((l) => l.startsWith('項目')) + 1)
      .filter(Boolean)
      .map((l) => l.split(','));
    let lineSum = 0;
    let current = 0;
    let added = 0;
    for (const c of dataRows) {
      if (c[0] && !c[0].startsWith('銀行への送金額')) {
        lineSum += toMinor(c.at(-1)!, cur);
        current = toMinor(c.at(-1)!, cur);
        added = 0;
      } else if (c[1] === '明細の合計') expect(added).toBe(current);
      else if (!c[0]) added += toMinor(c.at(-1)!, cur);
    }
    expect(lineSum).toBe(toMinor(p.transfer.amount, cur));
    const pdf = await ctx.app.inject({ method: 'GET', url: `${url(id)}/export`, headers: auth(demo, 'zh'), query: { format: 'pdf' } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const pt = await pdfText(pdf.rawPayload);
    expect(pt).toContain('出款证明');
    expect(pt).toContain(cur);
  }, 60_000);

  it('refuses bad input with a clear message, changing nothing', async () => {
    const bad = await ctx.call({ method: 'GET', url: `${url(id)}/rows`, headers: auth(demo), query: { line: 'settled:x', size: '7' } });
    expect(bad.status).toBe(400);
    const zone = await ctx.call({ method: 'GET', url: `${url(id)}/export`, headers: auth(demo, 'zh'), query: { format: 'csv', timeZone: 'Mars/Base' } });
    expect(zone.status).toBe(400);
    expect(zone.body.msg).toContain('未知时区');
    expect((await ctx.call({ method: 'GET', url: `${url(id)}/rows`, headers: auth(demo), query: { line: 'nosuch' } })).status).toBe(404);
    expect((await ctx.call({ method: 'GET', url: url('2026-09-01.1.UP.HKD'), headers: auth(demo) })).status).toBe(404);
    expect((await ctx.call({ method: 'GET', url: url('not-an-id'), headers: auth(demo) })).status).toBe(404);
  });

  it("answers another merchant's transfer as absent, on every route and on /v1", async () => {
    for (const path of [url(otherId), `${url(otherId)}/rows?line=fees`, `${url(otherId)}/export?format=csv`]) {
      const r = await ctx.call({ method: 'GET', url: path, headers: auth(demo) });
      expect(r.status, path).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain(DEMO.other);
    }
    const key = await createApiKey(ctx, demo, { permissions: [Perm.reportTransfer] });
    const ok = await v1(ctx, key.secret, { method: 'GET', url: `/v1/transfers/${id}/proof` });
    expect(ok.status).toBe(200);
    expect(ok.body.data.balanced).toBe(true);
    expect(ok.body.data.transfer.id).toBe(id);
    const other = await v1(ctx, key.secret, { method: 'GET', url: `/v1/transfers/${otherId}/proof` });
    expect(other.status).toBe(404);
    expect(other.body.error.type).toBe('not_found_error');
    const noPerm = await createApiKey(ctx, demo, { permissions: [Perm.txnList] });
    expect((await v1(ctx, noPerm.secret, { method: 'GET', url: `/v1/transfers/${id}/proof` })).status).toBe(403);
  });

  it('needs the transfer report permission', async () => {
    await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, Perm.reportTransfer]);
    const sub = (await ctx.login(DEMO.users.sub)).token;
    for (const path of [url(id), `${url(id)}/rows?line=fees`, `${url(id)}/export`]) expect((await ctx.call({ method: 'GET', url: path, headers: auth(sub) })).status, path).toBe(403);
  });
});
