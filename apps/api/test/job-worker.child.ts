/**
 * One API process's job runner, for the two-process test (workers.test.ts): env PG_URL, SCHEMA,
 * WORKER. Its handler `probe` records (job, worker) and takes 50 ms. Prints "ready" once polling;
 * stops when stdin closes.
 */
import { openPostgres } from '../src/db/db';
import { systemClock } from '../src/lib/clock';
import { createJobRunner } from '../src/jobs/runner';

const db = await openPostgres(process.env.PG_URL!, { searchPath: process.env.SCHEMA, max: 2 });
const worker = process.env.WORKER!;
const runner = createJobRunner({
  db,
  clock: systemClock,
  log: { info: () => undefined, error: (o) => console.error(o) },
  workerId: worker,
  pollMs: 20,
  handlers: {
    probe: async ({ job }) => {
      await db.query('INSERT INTO job_probe (job_id, worker) VALUES ($1, $2)', [job.id, worker]);
      await new Promise((r) => setTimeout(r, 50));
      return { result: { by: worker } };
    },
  },
});
runner.start();
console.log('ready');
process.stdin.resume();
process.stdin.on('end', async () => {
  await runner.stop();
  await db.close();
  process.exit(0);
});
