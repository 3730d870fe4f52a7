import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DB_KINDS, type TestCtx } from '../helpers';
import { addTxn } from '../../src/modules/txn/txn.fixtures';
import { drainExports, exportDir, exportSource, HOLD_BYTES } from '../../src/modules/export/export.service';

/**
 * Issue 10, finding 6: a streamed download that fails answers with the envelope before its first
 * byte and aborts the connection after it (never a clean 200 with a short file); a queued job
 * leaves no partial file behind, on failure or on retry.
 */
const RANGE = { beginDate: '2026-11-01 00:00:00', endDate: '2026-11-30 23:59:59' };

describe.each(DB_KINDS)('export failures (%s)', (kind) => {
  let ctx: TestCtx;
  let token: string;
  let source: ReturnType<typeof exportSource>;
  let original: Pick<ReturnType<typeof exportSource>, 'rows' | 'copyCsv'>;

  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    source = exportSource('txn');
    original = { rows: source.rows, copyCsv: source.copyCsv };
    for (let i = 0; i < 3; i++) await addTxn(ctx, { orderNo: `ORD-EXP-${i}`, txnTime: new Date(`2026-11-1${i}T04:00:00Z`) });
    token = (await ctx.login()).token;
  });
  afterEach(() => Object.assign(source, original));
  afterAll(() => ctx?.close());

  /** Makes the txn export fail after `rows` rows (of long text, so the file is well past HOLD_BYTES). */
  const failAfter = (rows: number) => {
    const real = original.rows;
    source.copyCsv = undefined;
    source.rows = (c, p) =>
      (async function* () {
        const base = [] as any[];
        for await (const batch of real(c, p)) base.push(...batch);
        for (let i = 0; i < rows; i += 500) yield Array.from({ length: Math.min(500, rows - i) }, (_, k) => ({ ...base[0], order_no: `ORD-${i + k}-${'x'.repeat(200)}` }));
        throw new Error('the database went away');
      })();
  };
  const download = (format: 'csv' | 'xlsx') => ctx.app.inject({ method: 'GET', url: '/api/txn/export', query: { ...RANGE, format }, headers: { 'x-token': token, 'accept-language': 'ja' } });

  it.each(['csv', 'xlsx'] as const)('a failure before the first byte answers with the envelope, not a file (%s)', async (format) => {
    failAfter(0);
    const res = await download(format);
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toBeUndefined();
    const body = res.json() as { requestId: string };
    expect(body).toEqual({ code: 500, msg: `サーバー内部エラーです。しばらくしてから再試行してください（サポートへの参照番号 ${body.requestId}）`, data: null, requestId: expect.any(String) });
  });

  it.each(['csv', 'xlsx'] as const)('a failure after the first bytes aborts the connection (%s)', async (format) => {
    failAfter(3000);
    const outcome = await download(format).then(
      (res) => ({ aborted: false, status: res.statusCode, bytes: res.rawPayload.length }),
      () => ({ aborted: true, status: 0, bytes: 0 }),
    );
    // Never a clean, complete-looking 200: the connection is cut (inject rejects, or returns what came before the cut).
    if (!outcome.aborted) {
      expect(outcome.status).toBe(200);
      expect(outcome.bytes).toBeGreaterThanOrEqual(HOLD_BYTES);
    }
    const again = await (Object.assign(source, original), download(format));
    expect(again.statusCode).toBe(200);
  });

  it('a queued job that fails leaves no file; a retry removes what an earlier attempt left', async () => {
    const dir = exportDir(ctx.deps);
    const queue = async () => (await ctx.call({ method: 'GET', url: '/api/txn/exportBack', query: { ...RANGE, format: 'xlsx' }, headers: { 'x-token': token } })).body.data.id as number;
    const filesOf = (id: number) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(`${id}-`)) : []);

    failAfter(3000);
    const failing = await queue();
    await drainExports(ctx.deps);
    const { rows } = await ctx.db.query<{ status: string }>('SELECT status FROM export_file WHERE id = $1', [failing]);
    expect(rows[0].status).toBe('failed');
    expect(filesOf(failing)).toEqual([]);

    Object.assign(source, original);
    const retried = await queue();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${retried}-0badc0ffee.xlsx`), 'half a file'); // an earlier attempt died here
    await drainExports(ctx.deps);
    const left = filesOf(retried);
    expect(left).toHaveLength(1);
    expect(left[0]).not.toContain('0badc0ffee');
  });
});
