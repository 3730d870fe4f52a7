/** A merchant's fee schedules: written (dated, with their history), listed, and a new one from a day on. */
import { Code, type OpsFeeLine } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta } from '../user';
import type { Operator } from './ops.auth';
import { OpsMerchantAudit, platformDay, who } from './merchants.fields';

const FEE_VALUES = (f: OpsFeeLine) => [f.mdrBp, f.fixedFee, f.cycleDays, f.reserveBp, f.reserveHoldDays, f.tranThreshold, f.tranFee, f.transferPeriod, f.disputeFee ?? 0];

/** Records dated schedules (the history; one per line and day — a day not yet reached may be re-entered). */
export async function writeSchedules(q: Queryable, merId: string, fees: OpsFeeLine[], from: string, by: Operator): Promise<void> {
  for (const f of fees) {
    await q.query(
      `INSERT INTO merchant_fee_schedule (mer_id, bus_line, effective_from, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period, dispute_fee, created_by_operator)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
       ON CONFLICT (mer_id, bus_line, effective_from) DO UPDATE SET mdr_bp = $4, fixed_fee = $5, cycle_days = $6, reserve_bp = $7, reserve_hold_days = $8,
         tran_threshold = $9, tran_fee = $10, transfer_period = $11, dispute_fee = $12, created_by_operator = $13, created_at = now()`,
      [merId, f.busLine, from, ...FEE_VALUES(f), by.id],
    );
  }
}

export async function writeFees(q: Queryable, merId: string, fees: OpsFeeLine[], from: string): Promise<void> {
  for (const f of fees) {
    await q.query(
      `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period, dispute_fee, effective_from)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
      [merId, f.busLine, ...FEE_VALUES(f), from],
    );
  }
}

/** Every dated schedule of the merchant, newest day first, with whether it is in force, past or to come. */
export async function feeHistory(deps: Deps, merId: string) {
  const m = await deps.db.query('SELECT 1 FROM merchant WHERE mer_id = $1', [merId]);
  if (!m.rows[0]) throw notFound();
  const today = platformDay(deps.clock.now(), deps.config.platformTz);
  const { rows } = await deps.db.query<Record<string, unknown> & { effectiveFrom: string; busLine: string }>(
    `SELECT bus_line AS "busLine", to_char(effective_from, 'YYYY-MM-DD') AS "effectiveFrom", mdr_bp AS "mdrBp", fixed_fee::float8 AS "fixedFee",
            cycle_days AS "cycleDays", reserve_bp AS "reserveBp", reserve_hold_days AS "reserveHoldDays", tran_threshold::float8 AS "tranThreshold",
            tran_fee::float8 AS "tranFee", transfer_period AS "transferPeriod", dispute_fee::float8 AS "disputeFee", o.username AS "enteredBy", s.created_at AS "enteredAt"
       FROM merchant_fee_schedule s LEFT JOIN ops_operator o ON o.id = s.created_by_operator
      WHERE s.mer_id = $1 ORDER BY s.effective_from DESC, s.bus_line`,
    [merId],
  );
  const inForce = new Map<string, string>();
  for (const r of rows) if (r.effectiveFrom <= today && !inForce.has(r.busLine)) inForce.set(r.busLine, r.effectiveFrom);
  return rows.map((r) => ({
    ...(r as unknown as OpsFeeLine & { effectiveFrom: string; enteredBy: string | null }),
    enteredAt: new Date(r.enteredAt as string).toISOString(),
    state: (r.effectiveFrom > today ? 'FUTURE' : inForce.get(r.busLine) === r.effectiveFrom ? 'IN_FORCE' : 'PAST') as 'FUTURE' | 'IN_FORCE' | 'PAST',
  }));
}

/**
 * A new fee schedule for some business lines from a day on: today or later, and after the last
 * settlement run (a change never reaches back into days already settled). From today: in force at
 * once; later: the settlement run of that day puts it in force. History is kept; audited.
 */
export async function addFeeSchedule(deps: Deps, merId: string, input: { effectiveFrom: string; fees: OpsFeeLine[] }, by: Operator, meta: Meta): Promise<void> {
  const today = platformDay(deps.clock.now(), deps.config.platformTz);
  await deps.db.tx(async (q) => {
    const m = await q.query('SELECT 1 FROM merchant WHERE mer_id = $1 FOR UPDATE', [merId]);
    if (!m.rows[0]) throw notFound();
    const last = await q.query<{ last: string | null }>(`SELECT to_char(max(run_date), 'YYYY-MM-DD') AS last FROM settlement_run`);
    // The earliest day: today, or the day after the last settlement run when that ran for today or later.
    const lastRun = last.rows[0].last;
    const earliest = lastRun && lastRun >= today ? new Date(Date.parse(`${lastRun}T00:00:00Z`) + 86400000).toISOString().slice(0, 10) : today;
    if (input.effectiveFrom < earliest) throw new AppError(Code.BAD_REQUEST, 'opsFeeNotBackInTime', { date: earliest }, 400);
    const before = await q.query<Record<string, unknown>>(
      `SELECT bus_line AS "busLine", mdr_bp AS "mdrBp", fixed_fee::float8 AS "fixedFee", cycle_days AS "cycleDays", reserve_bp AS "reserveBp",
              reserve_hold_days AS "reserveHoldDays", tran_threshold::float8 AS "tranThreshold", tran_fee::float8 AS "tranFee", transfer_period AS "transferPeriod",
              dispute_fee::float8 AS "disputeFee"
         FROM merchant_fee WHERE mer_id = $1 AND bus_line = ANY($2::text[]) ORDER BY bus_line`,
      [merId, input.fees.map((f) => f.busLine)],
    );
    await writeSchedules(q, merId, input.fees, input.effectiveFrom, by);
    if (input.effectiveFrom === today) {
      for (const f of input.fees) {
        await q.query(
          `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period, dispute_fee, effective_from)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)
           ON CONFLICT (mer_id, bus_line) DO UPDATE SET mdr_bp = $3, fixed_fee = $4, cycle_days = $5, reserve_bp = $6, reserve_hold_days = $7,
             tran_threshold = $8, tran_fee = $9, transfer_period = $10, dispute_fee = $11, effective_from = $12`,
          [merId, f.busLine, ...FEE_VALUES(f), today],
        );
      }
    }
    await audit(q, {
      action: OpsMerchantAudit.feeSchedule,
      ...who(by),
      merId,
      target: `merchant:${merId}`,
      detail: { effectiveFrom: input.effectiveFrom, before: before.rows, after: input.fees },
      ...meta,
    });
  });
}
