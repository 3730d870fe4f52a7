import { openPostgres } from '../../apps/api/src/db/db';
import { serveInChild, signedInToken } from '../api-server';
import { getJson } from '../http';
import { listTxn, countTxn, txnWhere } from '../../apps/api/src/modules/txn/txn.repo';
import { DEMO } from '../../apps/api/src/seed/foundation.seed';
const url = 'postgres://root@127.0.0.1:5432/test', schema = 'bench_report_300_350_95';
const db = await openPostgres(url, { searchPath: schema });
const api = await serveInChild(url, schema);
const token = await signedInToken(db);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((p / 100) * xs.length)];
async function time(name: string, fn: () => Promise<unknown>, n = 200) {
  for (let i = 0; i < 10; i++) await fn();
  const ts: number[] = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); await fn(); ts.push(performance.now() - t0); }
  console.log(name.padEnd(30), 'p50', pct(ts, 50).toFixed(2), 'p95', pct(ts, 95).toFixed(2));
}
const q = { beginDate: '2026-11-15 00:00:00', endDate: '2026-11-21 23:59:59', page: 0, size: 10 };
const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
const scope = [DEMO.group, DEMO.subA, DEMO.subB];
const w = txnWhere(q as never, scope, 'Asia/Shanghai');
console.log(w.sql, w.params);
for (let r = 0; r < 2; r++) {
await time('floor user/info', () => getJson(`${api.address}/api/user/info`, token));
await time('api last7d', () => getJson(`${api.address}/api/txn/list?${qs}`, token));
await time('raw last7d', () => Promise.all([listTxn(db, w, 0, 10), countTxn(db, w)]));
await time('raw list only', () => listTxn(db, w, 0, 10));
await time('raw count only', () => countTxn(db, w));
}

const { listTransactions } = await import('../../apps/api/src/modules/txn/txn.service');
const { loadConfig } = await import('../../apps/api/src/config');
const deps = { config: loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }), db: await openPostgres(url, { searchPath: schema }) } as never;
const { txnQuerySchema } = await import('@portal/contract');
const parsed = (txnQuerySchema as any).parse(Object.fromEntries(new URLSearchParams(qs)));
console.log(parsed);
await time('service listTransactions', () => listTransactions(deps, scope, parsed));
const w2 = txnWhere(parsed, scope, 'Asia/Shanghai'); console.log(w2.sql, w2.params);
await api.close(); await db.close(); process.exit(0);
