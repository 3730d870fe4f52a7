import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { makeConnection } from '../gateway/gateway.fixtures';
import { sweepInbox } from '../gateway/gateway.background';
import type { RatesFileReport } from './rates.file';

/** The inbox's daily rates file (issue 46): `<connection>/*.rates.csv`, picked up by the IMPORT_INBOX sweep. */
describe.each(DB_KINDS)('inbox: daily rates file (%s)', (kind) => {
  let ctx: TestCtx;
  let inbox: string;
  const sweep = async () => {
    const rates: RatesFileReport[] = [];
    const txns = await sweepInbox({ ...ctx.deps, config: { ...ctx.config, importInbox: inbox } }, undefined, rates);
    return { rates, txns };
  };
  const put = (name: string, lines: string[]) => fs.writeFileSync(path.join(inbox, 'ratesgw', name), lines.join('\n') + '\n');
  const usd = async () =>
    (
      await ctx.db.query<{ d: string; t: string; rate: string; source: string; source_ref: string }>(
        `SELECT rate_date::text AS d, trim(to_cur) AS t, rate::text AS rate, source, source_ref FROM fx_rate WHERE from_cur = 'USD' ORDER BY 1, 2`,
      )
    ).rows;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await makeConnection(ctx, 'ratesgw', [DEMO.group]);
    inbox = fs.mkdtempSync(path.join(os.tmpdir(), 'rates-inbox-'));
    fs.mkdirSync(path.join(inbox, 'ratesgw'), { recursive: true });
    await ctx.db.query(`DELETE FROM fx_rate WHERE from_cur = 'USD'`);
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(inbox, { recursive: true, force: true });
  });

  it('a rates file is stored row by row, refused rows reported with their line, the file moved to done/', async () => {
    put('2026-03-02.rates.csv', ['date,from,to,rate', '2026-03-02,USD,HKD,7.8125', '2026-03-02,USD,SGD,1.3425', '2026-03-02,USD,XXX,1', '2026-03-02,USD,EUR,abc', '#END,4']);
    const { rates, txns } = await sweep();
    expect(txns).toEqual([]); // not taken for a transaction file
    expect(rates).toHaveLength(1);
    expect(rates[0]).toMatchObject({ fileName: '2026-03-02.rates.csv', alreadyImported: false, rowsRead: 4, stored: 2, unchanged: 0, rejected: 2, message: null });
    expect(rates[0].errors.map((e) => e.line)).toEqual([4, 5]);
    expect(rates[0].errors[1].msg).toMatch(/Rate "abc" is not valid/);
    expect(await usd()).toEqual([
      { d: '2026-03-02', t: 'HKD', rate: '7.812500000000', source: 'file', source_ref: `file:${rates[0].fileId} 2026-03-02.rates.csv` },
      { d: '2026-03-02', t: 'SGD', rate: '1.342500000000', source: 'file', source_ref: `file:${rates[0].fileId} 2026-03-02.rates.csv` },
    ]);
    expect(fs.existsSync(path.join(inbox, 'ratesgw', 'done', '2026-03-02.rates.csv'))).toBe(true);
    const { rows } = await ctx.db.query<{ kind: string; status: string; accepted: number; rejected: number }>('SELECT kind, status, accepted, rejected FROM import_file WHERE id = $1', [
      rates[0].fileId,
    ]);
    expect(rows[0]).toEqual({ kind: 'rates', status: 'done', accepted: 2, rejected: 2 });
    const errs = await ctx.db.query<{ line: number }>('SELECT line FROM import_file_error WHERE file_id = $1 ORDER BY line', [rates[0].fileId]);
    expect(errs.rows.map((e) => e.line)).toEqual([4, 5]);
  });

  it('the same content again adds nothing; a correction column replaces a rate; another figure without it is refused', async () => {
    put('again.rates.csv', ['date,from,to,rate', '2026-03-02,USD,SGD,1.3425', '2026-03-02,USD,HKD,7.8125', '2026-03-02,USD,XXX,1', '2026-03-02,USD,EUR,abc', '#END,4']);
    // Same bytes as the first file: known by its hash.
    fs.copyFileSync(path.join(inbox, 'ratesgw', 'done', '2026-03-02.rates.csv'), path.join(inbox, 'ratesgw', 'copy.rates.csv'));
    put('fix.rates.csv', ['date,from,to,rate,correction', '2026-03-02,USD,HKD,7.80,true', '2026-03-02,USD,SGD,1.35,', '#END,2']);
    const { rates } = await sweep();
    const by = Object.fromEntries(rates.map((r) => [r.fileName, r]));
    expect(by['again.rates.csv']).toMatchObject({ stored: 0, unchanged: 2, rejected: 2 });
    expect(by['copy.rates.csv']).toMatchObject({ alreadyImported: true, stored: 0 });
    expect(by['fix.rates.csv']).toMatchObject({ stored: 1, rejected: 1 });
    expect(by['fix.rates.csv'].errors[0]).toMatchObject({ line: 3 });
    expect((await usd()).map((r) => [r.t, r.rate])).toEqual([
      ['HKD', '7.800000000000'],
      ['SGD', '1.342500000000'],
    ]);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM fx_rate_entry WHERE from_cur = 'USD' AND to_cur = 'HKD' AND rate_date = '2026-03-02'`);
    expect(rows[0].n).toBe(2);
  });

  it('a file cut short (no #END, or a wrong count) or with a wrong header stores nothing and says why', async () => {
    put('short.rates.csv', ['date,from,to,rate', '2026-03-03,USD,HKD,7.8']);
    put('count.rates.csv', ['date,from,to,rate', '2026-03-03,USD,HKD,7.8', '#END,2']);
    put('header.rates.csv', ['day,pair,rate', '2026-03-03,USDHKD,7.8', '#END,1']);
    const { rates } = await sweep();
    const by = Object.fromEntries(rates.map((r) => [r.fileName, r]));
    expect(by['short.rates.csv']).toMatchObject({ stored: 0, message: 'no #END line: the file is incomplete' });
    expect(by['count.rates.csv']).toMatchObject({ stored: 0, message: '#END says 2 rows, the file has 1' });
    expect(by['header.rates.csv'].message).toMatch(/date,from,to,rate/);
    expect((await usd()).filter((r) => r.d === '2026-03-03')).toEqual([]);
    const { rows } = await ctx.db.query<{ status: string }>(`SELECT status FROM import_file WHERE file_name = 'short.rates.csv'`);
    expect(rows[0].status).toBe('failed');
  });
});
