/**
 * The statements of one settlement run (domain.md, "The daily settlement run"), set-based, run in
 * order inside one transaction. Parameters: $1 settlement date D. Temp tables live until commit.
 */

/** Fee schedule used when a merchant has none for a business line (the column defaults of 002). */
const FEE_DEFAULTS = { mdrBp: 250, fixedFee: 0, cycleDays: 1, reserveBp: 0, holdDays: 0, threshold: 0, tranFee: 0, period: 'D' } as const;
const D = FEE_DEFAULTS;

/**
 * The run's working tables: temporary (per session), created once and emptied at every commit, so
 * a run does not pay for creating and dropping tables in the catalog each time.
 */
export const WORK_TABLES = [
  `CREATE TEMP TABLE IF NOT EXISTS s_cand (id bigint, mer_id text, bus_line text, txn_date date, tran_type text, currency text, amount bigint,
     amount_sign smallint, payment_brand text) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS s_rate (from_cur text, to_cur text, rate numeric, factor numeric, entry_id bigint) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS s_pick (id bigint, mer_id text, bus_line text, set_cur text, brand text, tran_type text, cur text, amount bigint,
     rate numeric, rate_id bigint, conv bigint, signed bigint, fee bigint) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS s_grp (mer_id text, bus_line text, set_cur text, n int, recon bigint, fee bigint, rel_prev bigint, reserve_bp int,
     hold_days int, threshold bigint, tran_fee bigint, period text, prev_date date, history bigint, prev_trans bigint, prev_search date, serv bigint,
     released bigint, transfer_day boolean, net bigint, due bigint, transfer boolean, search_date date, remit date) ON COMMIT DELETE ROWS`,
];

/** A rate older than this many days is not used: the transactions wait for a fresh one. */
const RATE_MAX_AGE_DAYS = 31;

/**
 * Per currency pair, the rate in force on D — the rate of D, else the latest of the month before —,
 * its version (fx_rate_entry id, recorded on every transaction it converts: issue 46) and the factor
 * for minor units. $2 codes, $3 exponents.
 */
export const RATES = `
INSERT INTO s_rate (from_cur, to_cur, rate, factor, entry_id)
SELECT l.from_cur, l.to_cur, l.rate, l.rate * (10::numeric ^ (et.e - ef.e)) AS factor, l.entry_id
  FROM (SELECT DISTINCT ON (from_cur, to_cur) from_cur::text AS from_cur, to_cur::text AS to_cur, rate, entry_id
          FROM fx_rate WHERE rate_date <= $1::date AND rate_date > $1::date - ${RATE_MAX_AGE_DAYS}
         ORDER BY from_cur, to_cur, rate_date DESC) l
  JOIN unnest($2::text[], $3::int[]) AS ef(c, e) ON ef.c = l.from_cur
  JOIN unnest($2::text[], $3::int[]) AS et(c, e) ON et.c = l.to_cur`;

/**
 * The fee schedule in force on D (issue 26): for every business line with a dated schedule
 * (merchant_fee_schedule, entered in the back office), the latest one from D or before becomes the
 * line's schedule in merchant_fee, which the rest of the run reads. Lines without dated schedules
 * keep theirs. Runs go forward by date, so each run applies its own day's schedule.
 */
export const APPLY_SCHEDULES = `
UPDATE merchant_fee f
   SET mdr_bp = s.mdr_bp, fixed_fee = s.fixed_fee, cycle_days = s.cycle_days, reserve_bp = s.reserve_bp,
       reserve_hold_days = s.reserve_hold_days, tran_threshold = s.tran_threshold, tran_fee = s.tran_fee,
       transfer_period = s.transfer_period, effective_from = s.effective_from, dispute_fee = s.dispute_fee
  FROM (SELECT DISTINCT ON (mer_id, bus_line) * FROM merchant_fee_schedule WHERE effective_from <= $1::date
         ORDER BY mer_id, bus_line, effective_from DESC) s
 WHERE f.mer_id = s.mer_id AND f.bus_line = s.bus_line AND f.effective_from IS DISTINCT FROM s.effective_from`;

/** A schedule (the default) for every business line of the merchants' enabled channels that has none. */
export const ENSURE_SCHEDULES = `
INSERT INTO merchant_fee (mer_id, bus_line)
SELECT DISTINCT m.mer_id,
       CASE WHEN upper(trim(c)) IN ('UP', 'APP', 'EXUP', 'UP_B2B') THEN 'UP' WHEN upper(trim(c)) IN ('AP', 'APDP', 'APMP') THEN 'AP'
            WHEN upper(trim(c)) LIKE 'PPRO%' THEN 'PPRO' ELSE upper(trim(c)) END
  FROM merchant m CROSS JOIN LATERAL unnest(m.channels) AS c
ON CONFLICT (mer_id, bus_line) DO NOTHING`;

/**
 * Step 1a, the candidates: for each fee schedule (every business line a merchant has transacted on
 * has one: ingestion adds the default), its unsettled successful transactions of a settling type
 * dated after the schedule's cursor (settled_through; unknown: as if the cycle had not changed since
 * the last run $2) up to D − cycle days — one exact range of txn_to_settle_idx per schedule — plus
 * the late queue's rows. $3 settling types.
 */
export const CANDIDATES = `
INSERT INTO s_cand (id, mer_id, bus_line, txn_date, tran_type, currency, amount, amount_sign, payment_brand)
SELECT t.id, t.mer_id, t.bus_line, t.txn_date, t.tran_type, t.currency, t.amount, t.amount_sign, t.payment_brand
  FROM merchant_fee f
  JOIN LATERAL (
    SELECT * FROM txn t
     WHERE t.mer_id = f.mer_id AND t.bus_line = f.bus_line AND t.settle_date IS NULL AND t.gw_response = '00'
       AND t.txn_date > coalesce(f.settled_through, $2::date - greatest(f.cycle_days, 1), '-infinity'::date)
       AND t.txn_date <= $1::date - f.cycle_days AND t.tran_type = ANY($3::text[])) t ON true
UNION ALL
SELECT t.id, t.mer_id, t.bus_line, t.txn_date, t.tran_type, t.currency, t.amount, t.amount_sign, t.payment_brand
  FROM settle_late l JOIN txn t ON t.id = l.txn_id
  LEFT JOIN merchant_fee f ON f.mer_id = t.mer_id AND f.bus_line = t.bus_line
 WHERE t.settle_date IS NULL AND t.gw_response = '00' AND t.tran_type = ANY($3::text[]) AND t.txn_date <= $1::date
   AND NOT coalesce(t.txn_date > coalesce(f.settled_through, $2::date - greatest(f.cycle_days, 1), '-infinity'::date)
                    AND t.txn_date <= $1::date - f.cycle_days, false)`;

/**
 * Step 1b: the transactions settling on D — the candidates that are due (a late one: D − cycle or
 * earlier; a business line without a schedule: T+1 after the last run $2). Converted with
 * half-even rounding; MDR fee on PURC only.
 */
export const PICK = `
INSERT INTO s_pick (id, mer_id, bus_line, set_cur, brand, tran_type, cur, amount, rate, rate_id, conv, signed, fee)
SELECT c.id, c.mer_id, c.bus_line, c.set_cur, c.brand, c.tran_type, c.cur, c.amount, c.rate, c.rate_id, c.conv, c.conv * c.sign AS signed,
       CASE WHEN c.tran_type = 'PURC' THEN div_half_even(c.conv * c.mdr_bp, 10000) + c.fixed_fee ELSE 0 END AS fee
  FROM (
    SELECT t.id, t.mer_id, t.bus_line, m.settle_currency::text AS set_cur, coalesce(t.payment_brand, '') AS brand, t.tran_type,
           t.currency::text AS cur, t.amount,
           CASE WHEN t.currency = m.settle_currency THEN 1::numeric ELSE r.rate END AS rate,
           CASE WHEN t.currency = m.settle_currency THEN NULL ELSE r.entry_id END AS rate_id,
           CASE WHEN t.currency = m.settle_currency THEN t.amount ELSE round_half_even(t.amount * r.factor) END AS conv,
           -- A won dispute's credit back (DISPUTE_REVERSAL) is money in, whether or not DISPUTE_RATES
           -- later converts it at its purchase's rate (it does not when the purchase settles in the same run).
           CASE WHEN t.tran_type IN ('PURC', 'UNFREEZE', 'PROFIT_INCOME', 'DISPUTE_REVERSAL') THEN 1 WHEN t.tran_type = 'MANENTD' THEN t.amount_sign ELSE -1 END AS sign,
           coalesce(f.mdr_bp, ${D.mdrBp}) AS mdr_bp, coalesce(f.fixed_fee, ${D.fixedFee}) AS fixed_fee
      FROM s_cand t
      JOIN merchant m ON m.mer_id = t.mer_id
      LEFT JOIN merchant_fee f ON f.mer_id = t.mer_id AND f.bus_line = t.bus_line
      LEFT JOIN s_rate r ON r.from_cur = t.currency::text AND r.to_cur = m.settle_currency::text
      LEFT JOIN settle_late l ON l.txn_id = t.id
     WHERE t.txn_date <= $1::date - coalesce(f.cycle_days, ${D.cycleDays})
       AND (l.txn_id IS NOT NULL
            OR t.txn_date > coalesce(f.settled_through, $2::date - greatest(coalesce(f.cycle_days, ${D.cycleDays}), 1), '-infinity'::date))
    OFFSET 0) c`;

/**
 * Issue 48: a chargeback's debit and a won dispute's credit (DISPUTE, DISPUTE_REVERSAL) convert as
 * their purchase did — at the purchase's rate (and rate version), not the day's —, so a dispute
 * never gains or loses on the exchange. A purchase not settled yet leaves the day's rate. $1 codes,
 * $2 exponents.
 */
export const DISPUTE_RATES = `
UPDATE s_pick p SET rate = o.fx_rate, rate_id = o.fx_rate_id, conv = x.conv,
       signed = x.conv * CASE WHEN p.tran_type = 'DISPUTE_REVERSAL' THEN 1 ELSE -1 END
  FROM txn d
  JOIN txn o ON o.id = d.origin_txn_id
  JOIN unnest($1::text[], $2::int[]) AS ef(c, e) ON ef.c = o.currency::text
  JOIN unnest($1::text[], $2::int[]) AS et(c, e) ON et.c = o.settle_currency::text
  CROSS JOIN LATERAL (SELECT round_half_even(d.amount * o.fx_rate * (10::numeric ^ (et.e - ef.e))) AS conv) x
 WHERE p.tran_type IN ('DISPUTE', 'DISPUTE_REVERSAL') AND d.id = p.id AND o.fx_rate IS NOT NULL
   AND o.currency::text = p.cur AND o.settle_currency::text = p.set_cur`;

/**
 * Issue 48: the disputes' own record of their ledger rows learns the settlement row each joined
 * (day, business line, currency) and its exact amount. $1 D.
 */
export const DISPUTE_MOVEMENTS = `
UPDATE dispute_movement m SET settle_date = $1::date, bus_line = p.bus_line, set_cur = p.set_cur, amount = abs(p.signed)
  FROM s_pick p WHERE m.settle_date IS NULL AND m.txn_id = p.id`;

/** Every schedule's cursor moves to D − cycle (never back: a lengthened cycle waits for it). */
export const ADVANCE_CURSORS = `
UPDATE merchant_fee SET settled_through = greatest(settled_through, $1::date - cycle_days)
 WHERE settled_through IS DISTINCT FROM greatest(settled_through, $1::date - cycle_days)`;

/**
 * The late queue after the run: settled entries leave; transactions waiting for a rate join it,
 * marked with the pair they wait for and the first run that lacked it (counted on /metrics, shown
 * on the runs screen: issue 46). $1 D.
 */
export const LATE_QUEUE = [
  `INSERT INTO settle_late (txn_id, waiting_pair, waiting_since)
   SELECT id, cur || '>' || set_cur, $1::date FROM s_pick WHERE conv IS NULL
   ON CONFLICT (txn_id) DO UPDATE SET waiting_pair = EXCLUDED.waiting_pair,
     waiting_since = CASE WHEN settle_late.waiting_pair IS NULL THEN EXCLUDED.waiting_since ELSE settle_late.waiting_since END`,
  `DELETE FROM settle_late l USING txn t WHERE t.id = l.txn_id AND (t.settle_date IS NOT NULL OR t.gw_response IS DISTINCT FROM '00')`,
];

/** Transactions without a rate for their pair wait (flag N) for a run that has one. */
export const DROP_UNCONVERTED = `DELETE FROM s_pick WHERE conv IS NULL`;

/**
 * Steps 2–3 per (merchant, business line, settlement currency): reconSetAmount, reserve held and
 * released, net, the pending roll-forward and the transfer decision. A group gets a row when it has
 * transactions, a reserve release due on D, or a carried balance that transfers on D.
 * $2 remit date (next business day after D). Each group's latest row before D (`prev`): the groups
 * found by skipping along settlement's primary key (`grp`, one probe each), then one probe for the
 * row — the cost follows the number of groups, not the days of history (a DISTINCT ON over the
 * table read every row of it on every run).
 */
export const GROUPS = `
INSERT INTO s_grp (mer_id, bus_line, set_cur, n, recon, fee, rel_prev, reserve_bp, hold_days, threshold, tran_fee, period, prev_date,
  history, prev_trans, prev_search, serv, released, transfer_day, net, due, transfer, search_date, remit)
WITH RECURSIVE agg AS (
  SELECT mer_id, bus_line, set_cur, count(*)::int AS n, sum(signed - fee)::bigint AS recon, sum(fee)::bigint AS fee
    FROM s_pick GROUP BY mer_id, bus_line, set_cur),
rel AS (
  SELECT mer_id, bus_line, set_cur::text AS set_cur, sum(amount)::bigint AS rel
    FROM reserve WHERE release_date = $1::date AND NOT released GROUP BY mer_id, bus_line, set_cur),
grp AS (
  (SELECT mer_id, bus_line, set_cur FROM settlement ORDER BY mer_id, bus_line, set_cur LIMIT 1)
  UNION ALL
  SELECT n.mer_id, n.bus_line, n.set_cur FROM grp g
   CROSS JOIN LATERAL (SELECT s.mer_id, s.bus_line, s.set_cur FROM settlement s
                        WHERE (s.mer_id, s.bus_line, s.set_cur) > (g.mer_id, g.bus_line, g.set_cur)
                        ORDER BY s.mer_id, s.bus_line, s.set_cur LIMIT 1) n),
prev AS (
  SELECT g.mer_id, g.bus_line, g.set_cur::text AS set_cur, l.txn_set_date, l.total_pending, l.trans_amount, l.recon_search_date
    FROM grp g
    JOIN LATERAL (SELECT s.txn_set_date, s.total_pending, s.trans_amount, s.recon_search_date FROM settlement s
                   WHERE s.mer_id = g.mer_id AND s.bus_line = g.bus_line AND s.set_cur = g.set_cur AND s.txn_set_date < $1::date
                   ORDER BY s.txn_set_date DESC LIMIT 1) l ON true),
keys AS (
  SELECT mer_id, bus_line, set_cur FROM agg
  UNION SELECT mer_id, bus_line, set_cur FROM rel
  UNION SELECT mer_id, bus_line, set_cur FROM prev WHERE total_pending > 0),
base AS (
  SELECT k.mer_id, k.bus_line, k.set_cur, coalesce(a.n, 0) AS n, coalesce(a.recon, 0) AS recon, coalesce(a.fee, 0) AS fee,
         coalesce(r.rel, 0) AS rel_prev,
         coalesce(f.reserve_bp, ${D.reserveBp}) AS reserve_bp, coalesce(f.reserve_hold_days, ${D.holdDays}) AS hold_days,
         coalesce(f.tran_threshold, ${D.threshold}) AS threshold, coalesce(f.tran_fee, ${D.tranFee}) AS tran_fee,
         coalesce(f.transfer_period, '${D.period}') AS period,
         p.txn_set_date AS prev_date, coalesce(p.total_pending, 0) AS history, coalesce(p.trans_amount, 0) AS prev_trans, p.recon_search_date AS prev_search
    FROM keys k
    LEFT JOIN agg a ON a.mer_id = k.mer_id AND a.bus_line = k.bus_line AND a.set_cur = k.set_cur
    LEFT JOIN rel r ON r.mer_id = k.mer_id AND r.bus_line = k.bus_line AND r.set_cur = k.set_cur
    LEFT JOIN prev p ON p.mer_id = k.mer_id AND p.bus_line = k.bus_line AND p.set_cur = k.set_cur
    LEFT JOIN merchant_fee f ON f.mer_id = k.mer_id AND f.bus_line = k.bus_line),
held AS (
  SELECT b.*, CASE WHEN b.recon > 0 THEN round_half_even(b.recon * b.reserve_bp / 10000.0) ELSE 0 END AS serv FROM base b),
calc AS (
  SELECT h.*, h.rel_prev + CASE WHEN h.hold_days = 0 THEN h.serv ELSE 0 END AS released,
         CASE WHEN h.period = 'D' THEN true
              WHEN h.period LIKE 'W%' THEN extract(isodow FROM $1::date) = substr(h.period, 2)::int
              ELSE extract(day FROM $1::date) = substr(h.period, 2)::int END AS transfer_day
    FROM held h),
net AS (
  SELECT c.*, c.recon - c.serv + c.released AS net, c.history + c.recon - c.serv + c.released AS due FROM calc c)
SELECT n.mer_id, n.bus_line, n.set_cur, n.n, n.recon, n.fee, n.rel_prev, n.reserve_bp, n.hold_days, n.threshold, n.tran_fee, n.period,
       n.prev_date, n.history, n.prev_trans, n.prev_search, n.serv, n.released, n.transfer_day, n.net, n.due,
       (n.transfer_day AND n.due > 0 AND n.due >= n.threshold AND n.due >= n.tran_fee) AS transfer,
       CASE WHEN n.prev_date IS NULL THEN $1::date WHEN n.prev_trans > 0 THEN n.prev_date + 1 ELSE n.prev_search END AS search_date,
       $2::date AS remit
  FROM net n`;

/** Drops carried-only groups that do not transfer today (they get no row). */
export const DROP_IDLE = `DELETE FROM s_grp WHERE n = 0 AND released = 0 AND NOT transfer`;

/** Step 4: the bill / transfer-settlement row of each group. */
export const INSERT_SETTLEMENT = `
INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount,
  net_amount, history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold,
  trans_period, remit_date, recon_search_date)
SELECT $1::date, mer_id, bus_line, set_cur, n, recon, fee, serv, released, net, history,
       CASE WHEN transfer THEN 0 ELSE due END, CASE WHEN transfer THEN due ELSE 0 END, CASE WHEN transfer THEN due ELSE 0 END,
       CASE WHEN transfer THEN tran_fee ELSE 0 END, CASE WHEN transfer THEN due - tran_fee ELSE 0 END, threshold, period,
       CASE WHEN transfer THEN remit END, search_date
  FROM s_grp`;

/** Reserve held today (released on D + hold days), releases due today, transfer dates of carried releases. */
export const RESERVES = [
  `INSERT INTO reserve (mer_id, bus_line, set_cur, txn_set_date, amount, release_date, released, transfer_date)
   SELECT mer_id, bus_line, set_cur, $1::date, serv, $1::date + hold_days, hold_days = 0, CASE WHEN hold_days = 0 AND transfer THEN remit END
     FROM s_grp WHERE serv > 0`,
  `UPDATE reserve r SET released = true, transfer_date = CASE WHEN g.transfer THEN g.remit END
     FROM s_grp g
    WHERE r.release_date = $1::date AND NOT r.released AND r.mer_id = g.mer_id AND r.bus_line = g.bus_line AND r.set_cur = g.set_cur`,
  `UPDATE reserve r SET transfer_date = g.remit
     FROM s_grp g
    WHERE g.transfer AND r.mer_id = g.mer_id AND r.bus_line = g.bus_line AND r.set_cur = g.set_cur
      AND r.released AND r.transfer_date IS NULL AND r.release_date >= g.search_date AND r.release_date < $1::date`,
];

/**
 * The transactions' settlement fields and flag, in one write per row: a transaction is reconciled
 * (Y) and cleared into the day's row (S) inside this transaction, so it commits as S — or as T
 * when its group transfers today. Earlier S rows of a transferring group's range become T.
 */
export const MARK_TXNS = [
  `UPDATE txn t SET settle_flag = CASE WHEN g.transfer THEN 'T' ELSE 'S' END, settle_date = $1::date, settle_currency = p.set_cur,
          fx_rate = p.rate, fx_rate_id = p.rate_id, settle_amount = p.signed, settle_fee = p.fee
     FROM s_pick p JOIN s_grp g ON g.mer_id = p.mer_id AND g.bus_line = p.bus_line AND g.set_cur = p.set_cur
    WHERE t.id = p.id`,
  `UPDATE txn t SET settle_flag = 'T'
     FROM s_grp g
    WHERE g.transfer AND g.search_date < $1::date AND t.mer_id = g.mer_id AND t.bus_line = g.bus_line AND t.settle_currency = g.set_cur
      AND t.settle_date >= g.search_date AND t.settle_date < $1::date AND t.settle_flag = 'S'`,
];

/** The daily summary by brand and type, plus the day's reserve held (M-DEPOSIT, negative) and released (M-DEPOSIT-RELEASE). */
export const SUMMARY = `
INSERT INTO settlement_summary (txn_set_date, mer_id, acquirer, payment_brand, txn_type, txn_cur, set_cur, txn_count, txn_amount,
  mdr_amount, settle_amount, fee)
SELECT $1::date, p.mer_id, coalesce(a.brief_name, ''), p.brand, p.tran_type, p.cur, p.set_cur, count(*), sum(p.amount), sum(p.conv),
       sum(p.signed), sum(p.fee)
  FROM s_pick p JOIN merchant m ON m.mer_id = p.mer_id LEFT JOIN acquirer a ON a.id = m.acquirer_id
 GROUP BY p.mer_id, a.brief_name, p.brand, p.tran_type, p.cur, p.set_cur
UNION ALL
SELECT $1::date, g.mer_id, coalesce(a.brief_name, ''), '', d.type, g.set_cur, g.set_cur, count(*), sum(d.amount), sum(d.amount),
       sum(d.amount) * d.sign, 0
  FROM s_grp g JOIN merchant m ON m.mer_id = g.mer_id LEFT JOIN acquirer a ON a.id = m.acquirer_id
  CROSS JOIN LATERAL (VALUES ('M-DEPOSIT', g.serv, -1), ('M-DEPOSIT-RELEASE', g.released, 1)) AS d(type, amount, sign)
 WHERE d.amount > 0
 GROUP BY g.mer_id, a.brief_name, d.type, d.sign, g.set_cur`;
