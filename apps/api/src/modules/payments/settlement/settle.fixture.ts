/** Test fixture of the settlement suites: a fresh database with the demo merchants and small helpers. */
import { freshDb } from '../../../../test/helpers';
import { seedFoundation } from '../../../seed/foundation.seed';
import { ingestTransaction, type IngestInput } from '../ingest.service';
import type { FeeSchedule } from '../demo/catalog';

export const TZ = 'Asia/Shanghai';
/** Independent merchant, settles SGD, channels CARD and AP, currencies SGD and USD. */
export const SG = '200000000000001';
/** Sub-merchant settling USD, currencies JPY, USD, KRW, EUR. */
export const JP = '100000000000003';

export type TestDb = Awaited<ReturnType<typeof freshDb>>;

export async function settleDb(kind: 'pglite' | 'postgres'): Promise<TestDb> {
  const db = await freshDb(kind);
  await seedFoundation(db, { env: 'test' });
  return db;
}

/** Empties everything the payment core writes, keeping merchants. */
export async function reset(db: TestDb): Promise<void> {
  await db.exec(
    'DELETE FROM settlement_summary; DELETE FROM settlement; DELETE FROM reserve; DELETE FROM settlement_run; DELETE FROM settle_late; DELETE FROM txn; DELETE FROM merchant_fee; DELETE FROM fx_rate',
  );
}

export async function setFee(db: TestDb, merId: string, busLine: string, f: Partial<Omit<FeeSchedule, 'busLine'>> = {}): Promise<void> {
  const x = { mdrBp: 0, fixedFee: 0, cycleDays: 1, reserveBp: 0, holdDays: 0, threshold: 0, tranFee: 0, period: 'D', ...f };
  await db.query(
    `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
     ON CONFLICT (mer_id, bus_line) DO UPDATE SET mdr_bp = $3, fixed_fee = $4, cycle_days = $5, reserve_bp = $6, reserve_hold_days = $7,
       tran_threshold = $8, tran_fee = $9, transfer_period = $10`,
    [merId, busLine, x.mdrBp, x.fixedFee, x.cycleDays, x.reserveBp, x.holdDays, x.threshold, x.tranFee, x.period],
  );
}

export async function setRate(db: TestDb, date: string, from: string, to: string, rate: string): Promise<void> {
  await db.query('INSERT INTO fx_rate (rate_date, from_cur, to_cur, rate) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING', [date, from, to, rate]);
}

let seq = 0;
/** A transaction at 12:00 platform time of `day` (default a successful SGD card purchase of merchant SG). */
export async function txn(db: TestDb, day: string, o: Partial<IngestInput> = {}): Promise<number> {
  const r = await ingestTransaction(
    db,
    {
      merId: SG,
      orderNo: `T${++seq}`,
      tranType: 'PURC',
      amount: 10000,
      currency: 'SGD',
      paymentSchema: 'CARD',
      paymentBrand: 'visa',
      gwResponse: '00',
      txnTime: new Date(`${day}T04:00:00Z`),
      ...o,
    },
    { platformTz: TZ },
  );
  return r.id;
}

export interface Row {
  txn_set_date: string;
  bus_line: string;
  set_cur: string;
  txn_count: number;
  recon_set_amount: number;
  fee_amount: number;
  serv_amount: number;
  released_amount: number;
  net_amount: number;
  history_pending: number;
  total_pending: number;
  trans_amount: number;
  real_trans_before_fee: number;
  tran_fee: number;
  real_trans_amount: number;
  remit_date: string | null;
  recon_search_date: string;
}

export async function rows(db: TestDb, merId = SG, busLine = 'CARD'): Promise<Row[]> {
  return (await db.query<Row>('SELECT * FROM settlement WHERE mer_id = $1 AND bus_line = $2 ORDER BY txn_set_date', [merId, busLine])).rows;
}

export async function txnRow(db: TestDb, id: number) {
  return (
    await db.query<{ settle_flag: string; settle_date: string | null; settle_amount: number | null; settle_fee: number | null; fx_rate: string | null }>(
      'SELECT settle_flag, settle_date, settle_amount, settle_fee, fx_rate FROM txn WHERE id = $1',
      [id],
    )
  ).rows[0];
}

/** A fingerprint of everything the run writes (to prove a second run changes nothing). */
export async function snapshot(db: TestDb): Promise<string> {
  const parts = await Promise.all([
    db.query(`SELECT id, settle_flag, settle_date, settle_amount, settle_fee, fx_rate, return_amount FROM txn ORDER BY id`),
    db.query(`SELECT * FROM settlement ORDER BY mer_id, bus_line, set_cur, txn_set_date`),
    db.query(`SELECT * FROM reserve ORDER BY mer_id, bus_line, set_cur, txn_set_date`),
    db.query(`SELECT * FROM settlement_summary ORDER BY mer_id, txn_set_date, payment_brand, txn_type, txn_cur`),
    db.query(`SELECT run_date, txn_count, row_count FROM settlement_run ORDER BY run_date`),
  ]);
  return JSON.stringify(parts.map((p) => p.rows.map((r) => ({ ...r, created_at: undefined, finished_at: undefined }))));
}
