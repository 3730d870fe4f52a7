import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, DEMO, form, type TestCtx } from '../../../test/helpers';
import { feedRow, makeConnection, makeFeedMonths, signedCall, type TestKey } from './gateway.fixtures';
import { importFile } from './import.service';
import { INBOX_JOB, RECON_JOB, setUpGatewayJobs, sweepInbox } from './gateway.background';
import { listDifferences, reconcileDay } from './recon.service';
import { loginWithStepUp } from '../txn/txn.fixtures';

const TZ = 'Asia/Shanghai';
const COLS = ['gwGTransId', 'clientid', 'orderNum', 'originorderno', 'gwTranType', 'gwResponse', 'gwAmount', 'gwCurrency', 'paymentSchema', 'paymentBrand', 'currentTime'];
/** A CSV day file of rows (feed rows), with its trailer computed from the successful rows unless given. */
function csvFile(dir: string, name: string, rows: Record<string, unknown>[], o: { totals?: string[][]; end?: number; extraLines?: string[] } = {}): string {
  const lines = [COLS.join(',')];
  for (const r of rows) lines.push(COLS.map((c) => (r[c] === undefined || r[c] === null ? '' : String(r[c]))).join(','));
  for (const l of o.extraLines ?? []) lines.push(l);
  const totals = new Map<string, { n: number; s: number }>();
  for (const r of rows) {
    if (r.gwResponse !== '00') continue;
    const k = `${String(r.currentTime).slice(0, 10)},${r.gwCurrency},${r.gwTranType}`;
    const t = totals.get(k) ?? { n: 0, s: 0 };
    t.n++;
    t.s += Math.round(Number(r.gwAmount) * 100);
    totals.set(k, t);
  }
  for (const t of o.totals ?? [...totals].map(([k, v]) => [...k.split(','), String(v.n), (v.s / 100).toFixed(2)])) lines.push(['#TOTAL', ...t].join(','));
  lines.push(`#END,${o.end ?? rows.length + (o.extraLines?.length ?? 0)}`);
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe.each(DB_KINDS)('file import and reconciliation (%s)', (kind) => {
  let ctx: TestCtx;
  let key: TestKey;
  let dir: string;
  const day = '2026-03-10';
  const at = (h: number) => `${day} ${String(h).padStart(2, '0')}:00:00`;
  const txnCount = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM txn')).rows[0].n;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await makeFeedMonths(ctx);
    key = await makeConnection(ctx, 'filegw', [DEMO.group]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-import-'));
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports a CSV day file with a report; rejected rows with line numbers; importing it again adds nothing', async () => {
    const rows = [
      feedRow({ currentTime: at(9) }),
      feedRow({ currentTime: at(10), gwCurrency: 'XXX', gwResponse: '01' }),
      feedRow({ currentTime: at(11), gwResponse: '01' }),
      feedRow({ currentTime: at(12), clientid: DEMO.other }),
    ];
    const file = csvFile(dir, 'day1.csv', rows, { extraLines: ['only,three,cells'] });
    const before = await txnCount();
    const r = await importFile(ctx.db, file, { connectionId: 'filegw', platformTz: TZ });
    expect(r).toMatchObject({ status: 'done', alreadyImported: false, rowsRead: 5, accepted: 2, duplicate: 0, rejected: 3 });
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([
      [3, 400],
      [5, 403],
      [6, 400],
    ]);
    expect(r.errors[0].gwGTransId).toBe(rows[1].gwGTransId);
    expect(r.controlOk).toBe(true);
    expect(await txnCount()).toBe(before + 2);
    const again = await importFile(ctx.db, file, { connectionId: 'filegw', platformTz: TZ });
    expect(again).toMatchObject({ alreadyImported: true, accepted: 2, rejected: 3 });
    expect(await txnCount()).toBe(before + 2);
    // The same rows in another file (another hash): every row a duplicate, nothing added.
    // Its end marker is wrong: reported (controlOk false, with the reason).
    const copy = csvFile(dir, 'day1-copy.csv', [rows[0], rows[2]], { end: 5 });
    const c = await importFile(ctx.db, copy, { connectionId: 'filegw', platformTz: TZ });
    expect(c).toMatchObject({ accepted: 0, duplicate: 2, rejected: 0, controlOk: false });
    expect(c.message).toMatch(/end marker says 5 rows, the file has 2/);
    expect(await txnCount()).toBe(before + 2);
  });

  it('JSON lines: the same rows and trailer', async () => {
    const rows = [feedRow({ currentTime: at(13) }), feedRow({ currentTime: at(14), gwAmount: '5.00' })];
    const file = path.join(dir, 'day1.jsonl');
    fs.writeFileSync(
      file,
      [
        ...rows.map((r) => JSON.stringify(r)),
        '{not json',
        JSON.stringify({ type: 'total', date: day, currency: 'HKD', tranType: 'PURC', count: 2, sum: '128.45' }),
        JSON.stringify({ type: 'end', count: 3 }),
      ].join('\n'),
    );
    const r = await importFile(ctx.db, file, { connectionId: 'filegw', platformTz: TZ });
    expect(r).toMatchObject({ format: 'jsonl', accepted: 2, rejected: 1, controlOk: true });
    expect(r.errors[0]).toMatchObject({ line: 3, code: 400 });
  });

  // Issue 47: the file path shares the feed's strict parsing; issue 46: its refused rows are counted.
  it('a NUL or a control in a text field refuses that row alone (line and field in the report); /metrics counts it', async () => {
    const figure = async () => {
      const text = ((await ctx.call({ method: 'GET', url: '/metrics' })).body as unknown as { raw: string }).raw;
      return Number(/^portal_ingested_rows_total\{source="file",result="rejected"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const before = await figure();
    const rows = [
      feedRow({ currentTime: at(17) }),
      feedRow({ currentTime: at(17), merReserve: 'x\u0000y' }),
      feedRow({ currentTime: at(17), storeName: 'Shop\u0085' }),
      feedRow({ currentTime: at(17) }),
    ];
    const file = path.join(dir, 'nul.jsonl');
    fs.writeFileSync(
      file,
      [
        ...rows.map((r) => JSON.stringify(r)),
        '{not json',
        JSON.stringify({ type: 'total', date: day, currency: 'HKD', tranType: 'PURC', count: 2, sum: '246.90' }),
        JSON.stringify({ type: 'end', count: 5 }),
      ].join('\n'),
    );
    const r = await importFile(ctx.db, file, { connectionId: 'filegw', platformTz: TZ });
    expect(r).toMatchObject({ status: 'done', accepted: 2, rejected: 3 });
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([
      [2, 400],
      [3, 400],
      [5, 400],
    ]);
    expect(r.errors[0].msg).toMatch(/merReserve.*control/);
    expect(r.errors[1].msg).toMatch(/storeName.*control/);
    expect((await figure()) - before).toBe(3);
  });

  it('a crash mid-file resumes after the last committed chunk: nothing lost, nothing doubled', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => feedRow({ currentTime: at(15), gwAmount: `${i + 1}.00` }));
    const file = csvFile(dir, 'crash.csv', rows);
    const before = await txnCount();
    let chunks = 0;
    await expect(
      importFile(ctx.db, file, {
        connectionId: 'filegw',
        platformTz: TZ,
        chunkSize: 3,
        afterChunk: () => {
          if (++chunks === 1) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect(await txnCount()).toBe(before + 3);
    const { rows: f } = await ctx.db.query<{ last_line: number; status: string }>(`SELECT last_line, status FROM import_file WHERE file_name = 'crash.csv'`);
    expect(f[0].last_line).toBe(4);
    const r = await importFile(ctx.db, file, { connectionId: 'filegw', platformTz: TZ, chunkSize: 3 });
    expect(r).toMatchObject({ resumedAfterLine: 4, rowsRead: 7, accepted: 7, duplicate: 0, rejected: 0, controlOk: true, status: 'done' });
    expect(await txnCount()).toBe(before + 7);
  });

  it('the inbox: files of a connection folder are imported and moved to done/', async () => {
    const inbox = path.join(dir, 'inbox');
    fs.mkdirSync(path.join(inbox, 'filegw'), { recursive: true });
    csvFile(path.join(inbox, 'filegw'), 'inbox1.csv', [feedRow({ currentTime: at(16) })]);
    const reports = await sweepInbox({ ...ctx.deps, config: { ...ctx.config, importInbox: inbox } });
    expect(reports.map((r) => [r.fileName, r.accepted])).toEqual([['inbox1.csv', 1]]);
    expect(fs.existsSync(path.join(inbox, 'filegw', 'done', 'inbox1.csv'))).toBe(true);
    expect(await sweepInbox({ ...ctx.deps, config: { ...ctx.config, importInbox: inbox } })).toEqual([]);
  });

  it('reconciliation lists missing, extra, status and control-total differences; the merchant API shows its own', async () => {
    const d2 = '2026-03-11';
    const t = (h: number) => `${d2} ${String(h).padStart(2, '0')}:00:00`;
    const a = feedRow({ currentTime: t(9), gwResponse: '04' });
    const b = feedRow({ currentTime: t(10) });
    const refused = feedRow({ currentTime: t(11), gwCurrency: 'EUR', paymentSchema: 'UP_B2B' });
    const batch = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [a, b, refused] });
    expect(batch.body.data).toMatchObject({ accepted: 2, rejected: 1 });
    // The gateway later says `a` succeeded in a file row, but the ledger's copy is changed behind its back to failed.
    await ctx.db.query(`UPDATE txn SET gw_response = '01' WHERE gw_trans_id = $1`, [a.gwGTransId]);
    // A ledger transaction of the merchant the gateway never reported.
    const other = feedRow({ currentTime: t(12) });
    const k2 = await makeConnection(ctx, 'second', [DEMO.group]);
    await signedCall(ctx, k2, 'POST', '/provider/v1/transactions', { transactions: [other] });
    const ct = await signedCall(ctx, key, 'POST', '/provider/v1/control-totals', { date: d2, totals: [{ gwCurrency: 'HKD', gwTranType: 'PURC', count: 3, sum: '370.35' }] });
    expect(ct.status).toBe(200);
    const res = await reconcileDay(ctx.db, d2, { platformTz: TZ, connectionId: 'filegw' });
    expect(res[0]).toMatchObject({ missing: 1, extra: 1, status: 1, amount: 0, total: 1, controlTotals: true });
    const diffs = await listDifferences(ctx.db, d2, null);
    const mine = diffs.filter((x) => x.connectionId === 'filegw');
    expect(mine.find((x) => x.kind === 'missing')?.gwTransId).toBe(refused.gwGTransId);
    expect(mine.find((x) => x.kind === 'extra')?.gwTransId).toBe(other.gwGTransId);
    expect(mine.find((x) => x.kind === 'status')).toMatchObject({ gwTransId: a.gwGTransId, detail: { reported: '04', ledger: '01' } });
    expect(mine.find((x) => x.kind === 'total')?.detail).toMatchObject({ currency: 'HKD', tranType: 'PURC', control: { count: 3, amount: 37035 }, ledger: { count: 2, amount: 24690 } });
    // Run again: replaced, not added.
    await reconcileDay(ctx.db, d2, { platformTz: TZ, connectionId: 'filegw' });
    expect((await listDifferences(ctx.db, d2, null)).filter((x) => x.connectionId === 'filegw')).toHaveLength(mine.length);
    // The merchant side: the demo group's user sees its merchant's rows; another merchant's user none.
    const { token } = await ctx.login();
    const api = await ctx.call({ method: 'GET', url: `/api/gateway/differences?date=${d2}`, headers: { 'x-token': token } });
    expect(api.status).toBe(200);
    expect(
      api.body.data
        .filter((x: any) => x.connectionId === 'filegw')
        .map((x: any) => x.kind)
        .sort(),
    ).toEqual(['extra', 'missing', 'status']);
    const { token: otherToken } = await ctx.login(DEMO.users.other);
    const theirs = await ctx.call({ method: 'GET', url: `/api/gateway/differences?date=${d2}`, headers: { 'x-token': otherToken } });
    expect(theirs.body.data).toEqual([]);
  });

  it('reconciliation lists a refund the portal made that the gateway never reported (unreported, issue 46), until the gateway reports it', async () => {
    // A purchase the gateway fed; the merchant refunds part of it in the portal and the sandbox answers
    // "Approved" at once — no gateway was reached (a production server left on the sandbox).
    const p = feedRow({
      currentTime: ctx.clock
        .now()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
      gwAmount: '100.00',
    });
    expect((await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [p] })).body.data).toMatchObject({ accepted: 1 });
    const token = await loginWithStepUp(ctx);
    const body = form({ id: p.gwGTransId as string, amount: '25.00', requestKey: 'recon-unreported-1' });
    const r = await ctx.call({ method: 'POST', url: '/api/txn/refund', headers: { 'x-token': token, ...body.headers }, payload: body.payload });
    expect(r.body.data, JSON.stringify(r.body)).toMatchObject({ gwResponse: '00' });
    const refd = (
      await ctx.db.query<{ gw_trans_id: string; day: string; order_no: string; txn_time: Date; payment_schema: string; payment_brand: string }>(
        'SELECT gw_trans_id, txn_date::text AS day, order_no, txn_time, payment_schema, payment_brand FROM txn WHERE id = $1',
        [r.body.data.refundId],
      )
    ).rows[0];

    const [res] = await reconcileDay(ctx.db, refd.day, { platformTz: TZ, connectionId: 'filegw' });
    expect(res).toMatchObject({ unreported: 1 });
    const mine = (await listDifferences(ctx.db, refd.day, null)).filter((x) => x.connectionId === 'filegw');
    expect(mine.find((x) => x.kind === 'unreported')).toMatchObject({
      gwTransId: refd.gw_trans_id,
      merId: DEMO.group,
      detail: { operation: 'refund', acquirer: 'sandbox', state: 'succeeded', tranType: 'REFD', currency: 'HKD', amount: 2500, gwResponse: '00', source: 'sandbox' },
    });
    // A kind of its own: not listed again as extra.
    expect(mine.filter((x) => x.gwTransId === refd.gw_trans_id).map((x) => x.kind)).toEqual(['unreported']);
    const run = (await ctx.db.query<{ differences: number }>('SELECT differences FROM recon_run WHERE connection_id = $1 AND txn_date = $2', ['filegw', refd.day])).rows[0];
    expect(run.differences).toBe(mine.length);
    // The merchant side shows it to its merchant's users, to no one else.
    const api = await ctx.call({ method: 'GET', url: `/api/gateway/differences?date=${refd.day}`, headers: { 'x-token': token } });
    expect(api.body.data.filter((x: any) => x.kind === 'unreported').map((x: any) => x.gwTransId)).toEqual([refd.gw_trans_id]);
    const { token: otherToken } = await ctx.login(DEMO.users.other);
    const theirs = await ctx.call({ method: 'GET', url: `/api/gateway/differences?date=${refd.day}`, headers: { 'x-token': otherToken } });
    expect(theirs.body.data.filter((x: any) => x.kind === 'unreported')).toEqual([]);

    // The gateway reports the refund under the id the portal gave it: the next run no longer lists it.
    const row = {
      gwGTransId: refd.gw_trans_id,
      clientid: DEMO.group,
      orderNum: refd.order_no,
      originorderno: p.orderNum,
      gwTranType: 'REFD',
      gwResponse: '00',
      gwAmount: '25.00',
      gwCurrency: 'HKD',
      paymentSchema: refd.payment_schema,
      paymentBrand: refd.payment_brand,
      currentTime: new Date(refd.txn_time).toISOString(),
      cardNumber: p.cardNumber,
    };
    const fed = await signedCall(ctx, key, 'POST', '/provider/v1/transactions', { transactions: [row] });
    expect(fed.body.data.results[0].status, JSON.stringify(fed.body.data.results[0])).not.toBe('rejected');
    const [after] = await reconcileDay(ctx.db, refd.day, { platformTz: TZ, connectionId: 'filegw' });
    expect(after).toMatchObject({ unreported: 0 });
    expect((await listDifferences(ctx.db, refd.day, null)).filter((x) => x.gwTransId === refd.gw_trans_id)).toEqual([]);
  });

  it('the jobs: scheduled once however many processes start; the daily one reconciles yesterday and forgets old signatures', async () => {
    await setUpGatewayJobs(ctx.deps);
    const handlers = await setUpGatewayJobs(ctx.deps);
    const { rows } = await ctx.db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM job WHERE kind = ANY($1::text[]) GROUP BY kind ORDER BY kind', [[INBOX_JOB, RECON_JOB]]);
    expect(rows).toEqual([
      { kind: INBOX_JOB, n: 1 },
      { kind: RECON_JOB, n: 1 },
    ]);
    await ctx.db.query(`INSERT INTO gateway_seen_signature (signature, expires_at) VALUES ('old', now() - interval '1 hour'), ('new', now() + interval '1 hour')`);
    const quiet = { info() {}, error() {} };
    const out = await handlers[RECON_JOB]({ db: ctx.db, clock: ctx.clock, job: {} as never, log: quiet, heartbeat: async () => {} });
    const result = (out as { result: { date: string; purged: number; results: { connectionId: string }[] } }).result;
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(result.results.map((r) => r.connectionId)).toContain('filegw');
    const { rows: left } = await ctx.db.query<{ signature: string }>(`SELECT signature FROM gateway_seen_signature WHERE signature IN ('old', 'new')`);
    expect(left.map((r) => r.signature)).toEqual(['new']);
    const { rows: runs } = await ctx.db.query('SELECT 1 FROM recon_run WHERE txn_date = $1', [result.date]);
    expect(runs.length).toBeGreaterThan(0);
  });
});
