import { openPostgres } from '../../apps/api/src/db/db';
import { serveInProcess, serveInChild, signedInToken } from '../api-server';
import { getJson } from '../http';
import { listTxn, countTxn, txnWhere } from '../../apps/api/src/modules/txn/txn.repo';
import { DEMO } from '../../apps/api/src/seed/foundation.seed';
const url = 'postgres://root@127.0.0.1:5432/test', schema = 'bench_report_300_350_95';
const db = await openPostgres(url, { searchPath: schema });
const mode = process.env.MODE;
const api = mode === 'child' ? await serveInChild(url, schema) : await serveInProcess(await openPostgres(url, { searchPath: schema }));
const token = await signedInToken(db);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((p / 100) * xs.length)];
const q = { beginDate: '2026-11-15 00:00:00', endDate: '2026-11-21 23:59:59', page: 0, size: 10 };
const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
const w = txnWhere(q as never, [DEMO.group, DEMO.subA, DEMO.subB], 'Asia/Shanghai');
const a: number[] = [], r: number[] = [];
for (let i = 0; i < 300; i++) {
  let t0 = performance.now(); await getJson(`${api.address}/api/txn/list?${qs}`, token); a.push(performance.now() - t0);
  t0 = performance.now(); await Promise.all([listTxn(db, w, 0, 10), countTxn(db, w)]); r.push(performance.now() - t0);
}
console.log(mode, 'api p50', pct(a, 50).toFixed(2), 'p95', pct(a, 95).toFixed(2), '| raw p50', pct(r, 50).toFixed(2), 'p95', pct(r, 95).toFixed(2));
await api.close(); process.exit(0);
