import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/ops/spawn';

/** WORKERS=N: whichever process answers /metrics, the figures are those of all processes (prom-client's AggregatorRegistry). */
describe('metrics under node:cluster', () => {
  it("two workers: every scrape shows the sum of both workers' counters", async () => {
    const port = await freePort();
    const harness = path.resolve(import.meta.dirname, '../../test/ops/cluster-harness.ts');
    const proc = spawn(process.execPath, ['--import', 'tsx', harness, String(port), '2'], { cwd: path.resolve(import.meta.dirname, '../../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        proc.once('exit', (code) => reject(new Error(`harness exited ${code}`)));
      });
      for (let i = 0; i < 4; i++) {
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(text).toMatch(/portal_mails_total\{result="sent"\} 2\n/);
        // A per-process 0/1 flag is not added up across processes (aggregator min).
        expect(text).toMatch(/portal_job_queue_collect_ok 0\n/);
        if (i > 0) expect(text).toMatch(/portal_http_request_duration_seconds_count\{route="\/metrics",method="GET",status="200"\} \d+/);
      }
    } finally {
      proc.kill('SIGTERM');
    }
  }, 60_000);
});
