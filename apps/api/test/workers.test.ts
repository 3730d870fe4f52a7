import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { enqueueJob } from '../src/jobs/queue';
import { DB_KINDS, freshDb, pgUrlOf } from './helpers';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('several API processes (WORKERS=N)', () => {
  it('refuses more than one process on the embedded PGlite, and takes a count on PostgreSQL', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS: more than one API process needs DATABASE_URL/);
    expect(() => loadConfig({ WORKERS: '0', DATABASE_URL: 'postgres://x@127.0.0.1/db' })).toThrow(/WORKERS/);
    expect(loadConfig({ WORKERS: '3', DATABASE_URL: 'postgres://x@127.0.0.1/db' }).workers).toBe(3);
    expect(loadConfig({}).workers).toBe(1);
  });
});

// Two OS processes each running the job runner over one PostgreSQL schema (PGlite is one process).
describe.each(DB_KINDS.filter((k) => k === 'postgres'))('jobs across two processes (%s)', (kind) => {
  const children: ChildProcess[] = [];
  let db: Awaited<ReturnType<typeof freshDb>>;
  afterAll(async () => {
    for (const c of children) c.stdin?.end();
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await db?.drop();
  });

  it('runs every job exactly once, on whichever process claims it', async () => {
    db = await freshDb(kind);
    await db.exec('CREATE TABLE job_probe (job_id bigint NOT NULL, worker text NOT NULL)');
    const start = (worker: string) =>
      new Promise<void>((resolve, reject) => {
        const c = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(import.meta.dirname, 'job-worker.child.ts')], {
          env: { ...process.env, PG_URL: pgUrlOf(db), SCHEMA: 'public', WORKER: worker },
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        children.push(c);
        c.once('exit', (code) => reject(new Error(`${worker} exited (${code})`)));
        createInterface({ input: c.stdout! }).on('line', (l) => l === 'ready' && resolve());
      });
    await Promise.all([start('p1'), start('p2')]);
    const N = 60;
    const ids: number[] = [];
    for (let i = 0; i < N; i++) ids.push((await enqueueJob(db, { kind: 'probe', payload: { i } }))!);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows: left } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE kind = 'probe' AND status <> 'done'`);
      if (left[0].n === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { rows: runs } = await db.query<{ job_id: number; worker: string }>('SELECT job_id::int AS job_id, worker FROM job_probe ORDER BY job_id');
    expect(runs.map((r) => r.job_id)).toEqual(ids.sort((a, b) => a - b));
    const by = new Set(runs.map((r) => r.worker));
    expect(by).toEqual(new Set(['p1', 'p2']));
    const { rows: done } = await db.query<{ by: string; n: number }>(`SELECT result->>'by' AS by, count(*)::int AS n FROM job WHERE kind = 'probe' GROUP BY 1 ORDER BY 1`);
    expect(done.reduce((s, r) => s + r.n, 0)).toBe(N);
  }, 300_000);
});
