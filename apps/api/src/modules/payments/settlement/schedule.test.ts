import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../../../test/helpers';
import { TestClock } from '../../../lib/clock';
import { createJobRunner } from '../../../jobs/runner';
import { setUpPaymentJobs } from '../payments.background';
import { createSandboxAcquirer } from '../sandbox.acquirer';
import type { Deps } from '../../../plugins/context';
import { SETTLE_JOB, nextSettleRunAt, settlementJob } from './settle.schedule';
import { SG, TZ, settleDb, txn, type TestDb } from './settle.fixture';

const quiet = { info: () => undefined, error: () => undefined };

describe('settlement schedule', () => {
  it('runs at 00:30 platform time, the next one strictly after now', () => {
    expect(nextSettleRunAt(new Date('2026-03-02T10:00:00Z'), TZ).toISOString()).toBe('2026-03-02T16:30:00.000Z');
    expect(nextSettleRunAt(new Date('2026-03-02T16:00:00Z'), TZ).toISOString()).toBe('2026-03-02T16:30:00.000Z');
    expect(nextSettleRunAt(new Date('2026-03-02T16:30:00Z'), TZ).toISOString()).toBe('2026-03-03T16:30:00.000Z');
    expect(nextSettleRunAt(new Date('2026-03-08T06:00:00Z'), 'Europe/London').toISOString()).toBe('2026-03-09T00:30:00.000Z');
  });
});

describe.each(DB_KINDS)('background jobs of the payment core on %s', (kind) => {
  let db: TestDb;
  const clock = new TestClock(new Date('2026-03-05T02:00:00Z')); // 10:00 on 5 March in Shanghai
  let deps: Deps;
  beforeAll(async () => {
    db = await settleDb(kind);
    deps = { db, clock, config: { platformTz: TZ } } as unknown as Deps;
  });
  afterAll(() => db.drop());

  it('catches up through yesterday at start, once across several processes, then waits for 00:30', async () => {
    for (const d of ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']) await txn(db, d);
    const handlers = await setUpPaymentJobs(deps);
    await setUpPaymentJobs(deps); // a second API process
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM job WHERE kind = $1', [SETTLE_JOB]);
    expect(rows[0].n).toBe(1);
    const runners = ['p1', 'p2'].map((w) => createJobRunner({ db, clock, log: quiet, handlers, workerId: w }));
    // Two processes' runners at once: they race for the job row on PostgreSQL; outcome only on PGlite.
    await Promise.all(runners.map((r) => r.tick()));
    const runs = await db.query<{ run_date: string }>('SELECT run_date FROM settlement_run ORDER BY run_date');
    expect(runs.rows.map((r) => r.run_date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    const job = (await db.query<{ status: string; run_at: Date; result: { through: string } }>('SELECT * FROM job WHERE kind = $1', [SETTLE_JOB])).rows[0];
    expect(job.status).toBe('queued');
    expect(new Date(job.run_at).toISOString()).toBe('2026-03-05T16:30:00.000Z');
    expect(job.result.through).toBe('2026-03-04');
    clock.set('2026-03-05T16:31:00Z');
    await runners[0].tick();
    const last = await db.query<{ d: string }>('SELECT max(run_date) AS d FROM settlement_run');
    expect(last.rows[0].d).toBe('2026-03-05');
  });

  it("resolves the sandbox's processing payments a minute later", async () => {
    const acq = createSandboxAcquirer({ platformTz: TZ, clock });
    const p = await db.tx((q) => acq.pay(q, { merId: SG, orderNo: 'SWEEP-1', amount: 5004, currency: 'SGD', channel: 'CARD', brand: 'visa' }));
    const runner = createJobRunner({ db, clock, log: quiet, handlers: await setUpPaymentJobs(deps) });
    clock.advance(90_000);
    await runner.tick();
    const { rows } = await db.query<{ gw_response: string }>('SELECT gw_response FROM txn WHERE id = $1', [p.id]);
    expect(rows[0].gw_response).toBe('00');
  });
});

describe.each(DB_KINDS)('the settlement job handler on %s', (kind) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await settleDb(kind);
  });
  afterAll(() => db.drop());

  it('beats once per date up to 100 %, counts the transactions, logs one line; with nothing to run, no beat and no line', async () => {
    for (const d of ['2026-04-01', '2026-04-02', '2026-04-03']) await txn(db, d);
    await txn(db, '2026-04-02');
    const clock = new TestClock(new Date('2026-04-04T02:00:00Z')); // 10:00 on 4 April in Shanghai
    const beats: number[] = [];
    const lines: unknown[] = [];
    const log = { info: (o: unknown, m: string) => lines.push([o, m]), error: () => undefined };
    const run = async () => (await settlementJob(TZ)({ db, clock, heartbeat: async (p: number) => void beats.push(p), log } as never)) as { result: unknown; nextRunAt: Date };
    const out = await run();
    expect(beats).toEqual([33, 66, 100]);
    // T+1: the runs through 3 April settle the payments of 1 and 2 April (three), not those of the 3rd.
    expect(out.result).toEqual({ through: '2026-04-03', dates: 3, txns: 3 });
    expect(out.nextRunAt.toISOString()).toBe('2026-04-04T16:30:00.000Z');
    expect(lines).toEqual([[{ from: '2026-04-01', through: '2026-04-03', dates: 3, txns: 3 }, 'settlement run']]);
    const again = await run();
    expect(again.result).toEqual({ through: '2026-04-03', dates: 0, txns: 0 });
    expect(beats).toHaveLength(3);
    expect(lines).toHaveLength(1);
  });
});
