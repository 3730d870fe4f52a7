/**
 * Bank statements (issue 49 §2): a camt.053 statement of N entries (default 10,000) uploaded through
 * POST /api/bankrec/statements — read, checked, stored, then matched to the merchant's N transfers —
 * in at most 10 s (the budget; on PostgreSQL by default). Then the same file again (a
 * duplicate: nothing added) and the matching screen's first answer.
 *
 *   BENCH_DB=postgres|pglite   (default postgres; BENCH_DATABASE_URL or TEST_DATABASE_URL)
 *   BENCH_ENTRIES=10000        entries of the statement (and transfers of the merchant)
 * The data is made afresh each run (PostgreSQL schema bench_statements, dropped before and after; PGlite in memory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, openPostgres, type Db } from '../apps/api/src/db/db';
import { migrate } from '../apps/api/src/db/migrate';
import { DEMO, seedFoundation } from '../apps/api/src/seed/foundation.seed';
import { camtStatement, insertTransfers, multipartBody, transferId, type CamtEntry, type TransferFixture } from '../apps/api/src/modules/bankrec/bankrec.fixtures';
import { check, finishCalls, sized } from './check';
import { serveInProcess, signedInToken } from './api-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'bench-results');
const kind = (process.env.BENCH_DB ?? 'postgres') as 'pglite' | 'postgres';
const N = Number(process.env.BENCH_ENTRIES ?? sized(10_000, 300));
const BUDGET_MS = 10_000;
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = 'bench_statements';

async function openDb(): Promise<Db> {
  if (kind === 'pglite') return openPglite();
  const admin = await openPostgres(pgUrl, { max: 1 });
  await admin.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
  await admin.close();
  return openPostgres(pgUrl, { searchPath: SCHEMA });
}

const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** N transfers of the demo group (28 business lines × consecutive days) and the bank's credits for them. */
function dataOf(n: number): { transfers: TransferFixture[]; entries: CamtEntry[]; planted: number } {
  const transfers: TransferFixture[] = [];
  const entries: CamtEntry[] = [];
  let planted = 0;
  for (let i = 0; i < n; i++) {
    const day = Math.floor(i / 28);
    const t: TransferFixture = { merId: DEMO.group, busLine: `L${i % 28}`, setCur: 'HKD', txnSetDate: addDays('2025-01-01', day), remitDate: addDays('2025-01-02', day), amount: 100_000 + i * 997 }; // every amount its own
    transfers.push(t);
  }
  // Exactly n entries: the credits of the first transfers (the last ones then have none).
  for (let i = 0; i < n && entries.length < n; i++) {
    const t = transfers[i];
    const r = i % 20;
    if (r === 17 && entries.length + 2 > n) break;
    const date = addDays(t.remitDate, r % 3);
    if (r < 13)
      entries.push({ amount: t.amount, currency: 'HKD', date, bankRef: `B${i}` }); // exact
    else if (r < 15)
      entries.push({ amount: t.amount - 750, currency: 'HKD', date, bankRef: `B${i}` }); // a bank fee
    else if (r < 17)
      entries.push({ amount: t.amount, currency: 'HKD', date, bankRef: `B${i}`, reference: `PAYOUT ${transferId(t)}` }); // by reference
    else if (r === 17) {
      entries.push({ amount: Math.floor(t.amount / 2), currency: 'HKD', date, bankRef: `B${i}a` }); // split
      entries.push({ amount: t.amount - Math.floor(t.amount / 2), currency: 'HKD', date, bankRef: `B${i}b` });
    } else if (r === 18)
      entries.push({ amount: t.amount, currency: 'HKD', date: addDays(t.remitDate, 20), bankRef: `B${i}` }); // late: unmatched
    else entries.push({ amount: -12_300, currency: 'HKD', date, bankRef: `B${i}` }); // a debit
    if (r < 18) planted++;
  }
  return { transfers, entries, planted };
}

export default async function run(): Promise<void> {
  const db = await openDb();
  await migrate(db);
  await seedFoundation(db, { env: 'test' });
  const { transfers, entries, planted } = dataOf(N);
  await insertTransfers(db, transfers);
  const xml = camtStatement({ id: `BENCH-${N}`, account: 'HK00BENCH0000000001', currency: 'HKD', opening: 0, entries });
  const api = await serveInProcess(db);
  const token = await signedInToken(db);
  const out: Record<string, unknown> = { kind, entries: entries.length, transfers: transfers.length, bytes: Buffer.byteLength(xml) };
  try {
    const post = async () => {
      const body = multipartBody({ name: 'bench.xml', content: xml });
      const t0 = performance.now();
      const res = await fetch(`${api.address}/api/bankrec/statements`, { method: 'POST', headers: { ...body.headers, 'x-token': token }, body: body.payload });
      const json = (await res.json()) as { code: number; msg: string; data: { statements: { outcome: string; added: number }[]; proposed: number } };
      return { ms: performance.now() - t0, status: res.status, json };
    };
    const first = await post();
    out.importMs = Math.round(first.ms);
    out.proposed = first.json.data?.proposed;
    console.log(
      `  import + match of ${entries.length} entries (${(Buffer.byteLength(xml) / 1024 / 1024).toFixed(1)} MiB) against ${transfers.length} transfers: ${Math.round(first.ms)} ms, ${first.json.data?.proposed} matches proposed (${planted} planted)`,
    );
    check(first.status === 200 && first.json.code === 0, () => `import: HTTP ${first.status} ${first.json.msg}`);
    check(first.json.data?.statements[0]?.added === entries.length, () => `import added ${first.json.data?.statements[0]?.added} of ${entries.length}`);
    // Every planted credit is matched (a split is one match of two credits).
    const expected = planted;
    check((first.json.data?.proposed ?? 0) >= expected, () => `proposed ${first.json.data?.proposed}, expected at least ${expected}`);
    if (N >= 10_000) check(first.ms <= BUDGET_MS, () => `import + match took ${Math.round(first.ms)} ms, the budget is ${BUDGET_MS} ms`);
    const again = await post();
    out.duplicateMs = Math.round(again.ms);
    console.log(`  the same file again: ${Math.round(again.ms)} ms (${again.json.data?.statements[0]?.outcome})`);
    check(again.json.data?.statements[0]?.outcome === 'duplicate' && again.json.data.proposed === 0, () => `again: ${JSON.stringify(again.json).slice(0, 200)}`);
    const t1 = performance.now();
    const view = await fetch(`${api.address}/api/bankrec/matching?beginDate=2025-01-01&endDate=2025-12-31`, { headers: { 'x-token': token } });
    const v = (await view.json()) as { code: number; data: { matches: unknown[] } };
    out.matchingMs = Math.round(performance.now() - t1);
    console.log(`  matching screen (2025): ${out.matchingMs} ms, ${v.data?.matches.length} matches`);
    check(view.status === 200 && v.code === 0 && v.data.matches.length > 0, () => `matching: HTTP ${view.status}`);
  } finally {
    await api.close();
    await db.close();
    if (kind === 'postgres') {
      const admin = await openPostgres(pgUrl, { max: 1 });
      await admin.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
      await admin.close();
    }
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `statements-${kind}.json`), `${JSON.stringify(out, null, 2)}\n`);
}

if (import.meta.main) {
  await run();
  finishCalls('statements');
}
