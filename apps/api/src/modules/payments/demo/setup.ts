import { CURRENCIES, exponentOf } from '@portal/contract';
import type { Queryable } from '../../../db/db';
import { daysBetween, datesBetween } from '../time';
import { Rng } from './rng';
import { DEFAULT_FX_SIGMA, DEMO_FEES, EXTRA_ACQUIRERS, FEE_CHOICES, FX_SIGMA, REGIONS, USD_VALUE, type FeeSchedule } from './catalog';
import { busLineOf } from '@portal/contract';
import { newToken } from '../../../lib/crypto';
import { methodsFor } from '@portal/contract';

/** What the generator needs to know of a merchant. */
export interface GenMerchant {
  merId: string;
  country: string;
  channels: string[];
  currencies: string[];
  defaultCurrency: string;
  settleCurrency: string;
  /** Relative size: scales the merchant's daily volume. */
  size: number;
  /** The merchant's stores (id, name): in-store transactions carry one of them. */
  stores: { id: string; name: string }[];
}

export async function loadGenMerchants(q: Queryable, ids: string[]): Promise<GenMerchant[]> {
  const { rows } = await q.query<{
    mer_id: string;
    country: string | null;
    channels: string[];
    currencies: string[];
    default_currency: string;
    settle_currency: string;
    store_ids: string[];
    store_names: string[];
  }>(
    `SELECT mer_id, country, channels, currencies, default_currency, settle_currency,
            ARRAY(SELECT s.store_id FROM store s WHERE s.mer_id = m.mer_id ORDER BY s.store_id) AS store_ids,
            ARRAY(SELECT s.name FROM store s WHERE s.mer_id = m.mer_id ORDER BY s.store_id) AS store_names
       FROM merchant m WHERE mer_id = ANY($1::text[]) AND enabled ORDER BY mer_id`,
    [ids],
  );
  return rows.map((m) => ({
    merId: m.mer_id,
    country: m.country?.trim() ?? 'HK',
    channels: m.channels,
    currencies: m.currencies.map((c) => c.trim()),
    defaultCurrency: m.default_currency.trim(),
    settleCurrency: m.settle_currency.trim(),
    size: 0.6 + new Rng(`size:${m.mer_id}`).next() * 0.8,
    stores: m.store_ids.map((id, i) => ({ id, name: m.store_names[i] })),
  }));
}

export async function ensureAcquirers(q: Queryable): Promise<void> {
  for (const [code, brief, name] of EXTRA_ACQUIRERS) {
    await q.query('INSERT INTO acquirer (code, brief_name, name) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING', [code, brief, name]);
  }
}

/** Creates `n` new merchants (ids 3000000000xxxxx after any existing ones): groups with sub-merchants and independents. */
export async function createMerchants(q: Queryable, n: number, seed: string, applicationDate: string): Promise<string[]> {
  if (n <= 0) return [];
  await ensureAcquirers(q);
  const { rows } = await q.query<{ max: string | null }>(`SELECT max(mer_id) AS max FROM merchant WHERE mer_id LIKE '3%'`);
  let next = rows[0].max ? Number(rows[0].max) + 1 : 300_000_000_000_001;
  const rng = new Rng(`${seed}:merchants:${next}`);
  const ids: string[] = [];
  let group: string | null = null;
  let subsLeft = 0;
  for (let i = 0; i < n; i++) {
    const id = String(next++);
    const region = REGIONS[(i + rng.int(0, 3)) % REGIONS.length];
    let attribute = 'INDEPENDENT';
    let parent: string | null = null;
    if (subsLeft > 0 && group) {
      attribute = 'SUB';
      parent = group;
      subsLeft--;
    } else if (i % 5 === 0 && n - i > 2) {
      attribute = 'GROUP';
      group = id;
      subsLeft = 2;
    }
    const settle = rng.chance(0.25) ? 'USD' : region.currency;
    const channels = region.channels.filter((c, j) => j < 2 || rng.chance(0.7));
    const currencies = [region.currency, ...region.extraCurrencies.filter(() => rng.chance(0.8))];
    const name = `${region.city} ${rng.pick(['Trading', 'Retail', 'Foods', 'Digital', 'Travel', 'Goods', 'Style', 'Tech'])} ${id.slice(-4)}`;
    await q.query(
      `INSERT INTO merchant (mer_id, name, web_store_name, corporation_name, country, city, mcc, attribute, parent_id, contractor, acquirer_id,
         application_date, default_currency, settle_currency, daily_limit, approved_at, principal_name, principal_email, channels, currencies)
       VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT id FROM acquirer WHERE code = $10), $11, $12, $13, $14, now(), $15, $16, $17, $18)`,
      [
        id,
        name,
        `${name} Ltd`,
        region.country,
        region.city,
        rng.pick(region.mcc),
        attribute,
        parent,
        rng.chance(0.2) ? 2 : 1,
        region.acquirer,
        applicationDate,
        region.currency,
        settle,
        1_000_000_000,
        `Owner ${id.slice(-4)}`,
        `owner${id.slice(-4)}@merchant.example`,
        channels,
        currencies,
      ],
    );
    // Two stores each, with every brand the merchant's channels offer in its currencies (no draw from rng: the data stays as it was).
    const brands = [...new Set(currencies.flatMap((c) => methodsFor(c, channels).map((x) => x.code)))];
    for (const n of [1, 2]) {
      await q.query('INSERT INTO store (mer_id, name, address, brands, static_token) VALUES ($1, $2, $3, $4, $5)', [
        id,
        `${region.city} Store ${n}`,
        `${n * 10} Main Street, ${region.city}`,
        brands,
        newToken(),
      ]);
    }
    ids.push(id);
  }
  return ids;
}

/** A generated merchant's fee schedules, one per business line, drawn from FEE_CHOICES. */
function drawFees(m: GenMerchant, seed: string): FeeSchedule[] {
  const rng = new Rng(`${seed}:fees:${m.merId}`);
  const lines = [...new Set(m.channels.map(busLineOf))];
  const inSettle = (usd: number) => Math.round(usd / USD_VALUE[m.settleCurrency]) * 10 ** exponentOf(m.settleCurrency);
  return lines.map((busLine) => {
    const [reserveBp, holdDays] = rng.pick(FEE_CHOICES.reserve);
    return {
      busLine,
      mdrBp: rng.pick(FEE_CHOICES.mdrBp),
      fixedFee: exponentOf(m.settleCurrency) === 0 ? 0 : rng.pick(FEE_CHOICES.fixedFeeMinor),
      cycleDays: rng.pick(FEE_CHOICES.cycleDays),
      reserveBp,
      holdDays,
      threshold: inSettle(rng.pick(FEE_CHOICES.thresholdMajor)),
      tranFee: inSettle(rng.pick(FEE_CHOICES.tranFeeMajor)),
      period: rng.pick(FEE_CHOICES.period),
    };
  });
}

/** Fee schedules (demo merchants: DEMO_FEES; others drawn) and a default bank account, where missing. */
export async function setupMerchantTerms(q: Queryable, merchants: GenMerchant[], seed: string): Promise<void> {
  for (const m of merchants) {
    const fees = DEMO_FEES[m.merId] ?? drawFees(m, seed);
    for (const x of fees) {
      await q.query(
        `INSERT INTO merchant_fee (mer_id, bus_line, mdr_bp, fixed_fee, cycle_days, reserve_bp, reserve_hold_days, tran_threshold, tran_fee, transfer_period)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (mer_id, bus_line) DO NOTHING`,
        [m.merId, x.busLine, x.mdrBp, x.fixedFee, x.cycleDays, x.reserveBp, x.holdDays, x.threshold, x.tranFee, x.period],
      );
    }
    await q.query(
      `INSERT INTO merchant_bank_account (mer_id, beneficiary_bank, swift_code, bank_address, account_name, account_number, country, currency)
       SELECT m.mer_id, coalesce(a.name, 'Demo Bank'), upper(substr(coalesce(a.code, 'DEMO'), 1, 4)) || coalesce(m.country, 'HK') || 'XX', m.city,
              m.corporation_name, $2, coalesce(m.country, 'HK'), m.settle_currency
         FROM merchant m LEFT JOIN acquirer a ON a.id = m.acquirer_id
        WHERE m.mer_id = $1 AND NOT EXISTS (SELECT 1 FROM merchant_bank_account b WHERE b.mer_id = m.mer_id)`,
      [m.merId, new Rng(`${seed}:bank:${m.merId}`).digits(12)],
    );
  }
}

/** USD value of a currency on a date: smooth waves plus daily noise, a pure function of (seed, currency, date). */
function usdValue(cur: string, date: string, seed: string): number {
  const sigma = FX_SIGMA[cur] ?? DEFAULT_FX_SIGMA;
  if (sigma === 0) return USD_VALUE[cur];
  const dn = daysBetween('2020-01-01', date);
  const ph = new Rng(`${seed}:fxphase:${cur}`);
  const [p1, p2] = [ph.next() * 6.28, ph.next() * 6.28];
  const noise = new Rng(`${seed}:fx:${cur}:${date}`).next() * 2 - 1;
  return USD_VALUE[cur] * Math.exp(sigma * (5 * (0.6 * Math.sin(dn / 23 + p1) + 0.4 * Math.sin(dn / 71 + p2)) + 0.5 * noise));
}

/** Rates of every currency into each settlement currency in use, for every date (existing rows kept). */
export async function seedFxRates(q: Queryable, from: string, to: string, seed: string): Promise<number> {
  const { rows } = await q.query<{ c: string }>('SELECT DISTINCT settle_currency AS c FROM merchant');
  const targets = rows.map((r) => r.c.trim());
  const d: string[] = [],
    f: string[] = [],
    t: string[] = [],
    r: string[] = [];
  for (const date of datesBetween(from, to)) {
    const v = Object.fromEntries(CURRENCIES.map((c) => [c, usdValue(c, date, seed)]));
    for (const to of targets) {
      for (const fr of CURRENCIES) {
        if (fr === to) continue;
        d.push(date);
        f.push(fr);
        t.push(to);
        r.push(Number((v[fr] / v[to]).toPrecision(9)).toFixed(12));
      }
    }
  }
  const res = await q.query(
    `INSERT INTO fx_rate (rate_date, from_cur, to_cur, rate) SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::numeric[])
     ON CONFLICT DO NOTHING`,
    [d, f, t, r],
  );
  return res.rowCount;
}
