import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, type Language } from '@portal/contract';
import type { Db, Queryable } from '../../db/db';
import type { Clock } from '../../lib/clock';
import { ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/runner';
import { lastRunDate } from '../payments';
import { platformDate, zonedInstant } from '../../lib/zone';
import { merchantFees } from '../merchant';
import { addMonths, buildStatement, monthBounds, statementCsv, statementPdf, type MonthlyStatement } from './statement.service';
import { feeSchedulePdf } from './fee-schedule.pdf';
import { STATEMENT_LABELS } from '../txn';

export const STATEMENT_JOB = 'files.monthlyStatements';
/** How far back a first run (or a long outage) catches up. */
const CATCH_UP_MONTHS = 12;
/** The job runs at 01:00 platform time on the 1st, after the 00:30 settlement of the month's last day. */
const RUN_AT_MINUTES = 60;

export type DocKind = 'MONTHLY_STATEMENT' | 'FEE_SCHEDULE';

export interface DocInput {
  merId: string;
  kind: DocKind;
  period: string;
  currency: string;
  lang: Language;
  format: 'pdf' | 'csv';
  fileName: string;
  body: Buffer | string;
  data: unknown;
}

/**
 * Writes the file (temp + rename, under DATA_DIR/files/<merId>/, named by the document's unique
 * key) and inserts its row; a second writer of the same key (a re-run, another process) changes
 * nothing: the row's unique key keeps one. Returns whether a row was added.
 */
export async function storeDocument(q: Queryable, dataDir: string, d: DocInput): Promise<boolean> {
  const rel = path.posix.join('files', d.merId, `${d.kind}_${d.period}_${d.currency}_${d.lang}.${d.format}`);
  const abs = path.join(dataDir, rel);
  await mkdir(path.dirname(abs), { recursive: true });
  const body = typeof d.body === 'string' ? Buffer.from(d.body, 'utf8') : d.body;
  const tmp = `${abs}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, body);
  await rename(tmp, abs);
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO merchant_document (mer_id, kind, period, currency, lang, format, file_name, file_path, size_bytes, data)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
     ON CONFLICT (mer_id, kind, period, currency, lang, format) DO NOTHING RETURNING id`,
    [d.merId, d.kind, d.period, d.currency, d.lang, d.format, d.fileName, rel, body.length, JSON.stringify(d.data)],
  );
  return rows.length > 0;
}

/** The (merchant, settlement currency) pairs with settlement rows up to the month's end. */
async function pairsOf(q: Queryable, last: string): Promise<{ mer_id: string; set_cur: string }[]> {
  const { rows } = await q.query<{ mer_id: string; set_cur: string }>(`SELECT DISTINCT mer_id, set_cur FROM settlement WHERE txn_set_date <= $1::date ORDER BY mer_id, set_cur`, [last]);
  return rows.map((r) => ({ mer_id: r.mer_id, set_cur: r.set_cur.trim() }));
}

const statementFileName = (s: Pick<MonthlyStatement, 'merId' | 'month' | 'currency'>, lang: Language, ext: string) =>
  `${STATEMENT_LABELS.monthlyTitle[lang]}_${s.merId}_${s.month}_${s.currency}.${ext}`;

/**
 * Publishes the statements of one month (every merchant and settlement currency with activity or
 * a balance carried), PDF and CSV in each language. Returns how many documents were added.
 */
export async function publishMonth(db: Db, dataDir: string, tz: string, month: string, now: Date): Promise<number> {
  const [, last] = monthBounds(month);
  let added = 0;
  for (const p of await pairsOf(db, last)) {
    const have = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM merchant_document WHERE mer_id = $1 AND kind = 'MONTHLY_STATEMENT' AND period = $2 AND currency = $3`, [
      p.mer_id,
      month,
      p.set_cur,
    ]);
    if (have.rows[0].n >= LANGUAGES.length * 2) continue;
    const s = await buildStatement(db, p.mer_id, p.set_cur, month);
    if (!s.active) continue;
    const data = { ...s, active: undefined };
    for (const lang of LANGUAGES) {
      const common = { merId: s.merId, kind: 'MONTHLY_STATEMENT' as const, period: month, currency: s.currency, lang, data };
      if (await storeDocument(db, dataDir, { ...common, format: 'csv', fileName: statementFileName(s, lang, 'csv'), body: statementCsv(s, lang) })) added++;
      if (await storeDocument(db, dataDir, { ...common, format: 'pdf', fileName: statementFileName(s, lang, 'pdf'), body: await statementPdf(s, lang, tz, now) })) added++;
    }
  }
  return added;
}

/** The months whose statements are due at `now`: up to CATCH_UP_MONTHS back, through last month, settled through its end. */
async function dueMonths(q: Queryable, now: Date, tz: string): Promise<string[]> {
  const lastMonth = addMonths(platformDate(now, tz).slice(0, 7), -1);
  const ran = await lastRunDate(q);
  const first = await q.query<{ d: string | null }>(`SELECT to_char(min(txn_set_date), 'YYYY-MM') AS d FROM settlement`);
  if (!ran || !first.rows[0].d) return [];
  const out: string[] = [];
  for (let m = [first.rows[0].d, addMonths(lastMonth, 1 - CATCH_UP_MONTHS)].sort()[1]; m <= lastMonth; m = addMonths(m, 1)) {
    if (monthBounds(m)[1] <= ran) out.push(m);
  }
  return out;
}

/** The next 01:00 on a 1st of the month (platform zone) strictly after `now`. */
function nextStatementRunAt(now: Date, tz: string): Date {
  const month = platformDate(now, tz).slice(0, 7);
  const at = zonedInstant(`${month}-01`, tz, RUN_AT_MINUTES);
  return at > now ? at : zonedInstant(`${addMonths(month, 1)}-01`, tz, RUN_AT_MINUTES);
}

/** Publishes every due month not yet published; the months looked at and the documents added. */
export async function publishDueStatements(db: Db, dataDir: string, tz: string, now: Date): Promise<{ months: string[]; added: number }> {
  const months = await dueMonths(db, now, tz);
  let added = 0;
  for (const m of months) added += await publishMonth(db, dataDir, tz, m, now);
  return { months, added };
}

/**
 * The month-end job: publishes every due month not yet published (missed months are caught up
 * after a restart), then re-queues itself for the next 1st. When the settlement run has not yet
 * reached the end of last month, it looks again in ten minutes.
 */
export function monthlyStatementJob(dataDir: string, tz: string): JobHandler {
  return async ({ db, clock, log }) => {
    const { months, added } = await publishDueStatements(db, dataDir, tz, clock.now());
    if (added) log.info({ months, added }, 'monthly statements published');
    const lastMonth = addMonths(platformDate(clock.now(), tz).slice(0, 7), -1);
    const ran = await lastRunDate(db);
    const settled = !ran || monthBounds(lastMonth)[1] <= ran;
    const next = settled ? nextStatementRunAt(clock.now(), tz) : new Date(clock.now().getTime() + 10 * 60_000);
    return { result: { months, added }, nextRunAt: next };
  };
}

export async function ensureStatementSchedule(db: Db, clock: Clock): Promise<void> {
  await ensureRecurringJob(db, { kind: STATEMENT_JOB, uniqueKey: STATEMENT_JOB, runAt: clock.now() });
}

/**
 * The fee schedule of a merchant in one language, generated on request and cached: a new document
 * (period = today) only when the fee rows differ from the newest one's (their hash is in `data`).
 */
export async function ensureFeeSchedule(db: Db, dataDir: string, tz: string, merId: string, lang: Language, now: Date): Promise<void> {
  const fees = await merchantFees(db, merId);
  if (!fees.length) return;
  const hash = createHash('sha256').update(JSON.stringify(fees)).digest('hex').slice(0, 16);
  const latest = await db.query<{ h: string | null }>(
    `SELECT data->>'hash' AS h FROM merchant_document WHERE mer_id = $1 AND kind = 'FEE_SCHEDULE' AND lang = $2 ORDER BY period DESC, id DESC LIMIT 1`,
    [merId, lang],
  );
  if (latest.rows[0]?.h === hash) return;
  const m = await db.query<{ name: string }>('SELECT name FROM merchant WHERE mer_id = $1', [merId]);
  const period = platformDate(now, tz);
  const body = await feeSchedulePdf({ merId, merName: m.rows[0]?.name ?? '', fees, period }, lang, tz, now);
  const fileName = `${FEE_TITLE[lang]}_${merId}_${period}.pdf`;
  const doc = { merId, kind: 'FEE_SCHEDULE' as const, period, currency: fees[0].currency, lang, format: 'pdf' as const, fileName, body, data: { hash, fees } };
  if (!(await storeDocument(db, dataDir, doc))) {
    // Changed again on the same day: the day's document is replaced (same key, same file path).
    await db.query(`UPDATE merchant_document SET data = $5, size_bytes = $6, created_at = now() WHERE mer_id = $1 AND kind = 'FEE_SCHEDULE' AND period = $2 AND lang = $3 AND format = $4`, [
      merId,
      period,
      lang,
      'pdf',
      JSON.stringify(doc.data),
      body.length,
    ]);
  }
}

const FEE_TITLE: Record<Language, string> = { en: 'Fee schedule', zh: '费率表', ko: '수수료표', ja: '手数料表' };
