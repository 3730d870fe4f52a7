import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, DEMO } from '../../test/helpers';
import { apiClient, scratchDatabase, serve, tmpDir } from '../../test/ops/spawn';
import { openDb } from '../db/db';

/**
 * Graceful shutdown of the real server (issue 27): SIGTERM during a burst of refunds. The requests
 * in flight are answered, /readyz is 503 while draining, the process exits 0; after a restart on
 * the same data every refund that was answered "refunded" is there once and none other is.
 */
describe.each(DB_KINDS)('graceful shutdown (%s)', (kind) => {
  it('SIGTERM during a burst of refunds: in-flight ones answered, the rest refused unread, readyz 503 while draining, exit 0, the data holds exactly the answered refunds', async () => {
    const dataDir = tmpDir('portal-shutdown-');
    const db = kind === 'postgres' ? await scratchDatabase('ops_shutdown') : null;
    const env = { SHUTDOWN_DELAY_MS: '300', SEED_DAYS: '0', SHUTDOWN_GRACE_MS: '15000', ...(db ? { DATABASE_URL: db.url } : {}) };
    try {
      const s = await serve(dataDir, env);
      const api = apiClient(s);
      await api.login(DEMO.users.demo, DEMO.password);
      const list = await api.call('GET', '/api/txn/list?page=0&size=50');
      const row = (list.body.data.content as { id: number; gwTranType: string; gwResponse: string; returnAmount: string; gwAmount: string; gwCurrency: string; paymentSchema: string }[]).find(
        (r) => r.gwTranType === 'PURC' && r.gwResponse === '00' && Number(r.returnAmount) === 0 && Number(r.gwAmount) >= 1,
      );
      expect(row, 'a refundable purchase in the seed').toBeTruthy();
      const detail = async () => (await api.call('GET', `/api/txn/${row!.id}`)).body.data;
      const gwId = (await detail()).gwGTransId as string;

      const N = 60;
      const keys = Array.from({ length: N }, (_, i) => `shutdown-${kind}-${i}`);
      type Answer = { status: number; body: any };
      const burst: Promise<Answer>[] = keys.map((requestKey) =>
        api.call('POST', '/api/txn/refund', { id: gwId, amount: '0.01', txnschema: row!.paymentSchema, requestKey }).catch((e: Error) => ({ status: -1, body: { err: String(e.cause ?? e) } })),
      );
      // SIGTERM while the burst is in flight.
      s.proc.kill('SIGTERM');
      const draining = await fetch(`${s.base}/readyz`).then((r) => r.status, () => 'refused');
      const answers = await Promise.all(burst);
      const code = await s.exited;
      expect(draining).toBe(503);
      expect(code, s.log().slice(-2000)).toBe(0);
      expect(s.log()).toContain('"msg":"shut down"');
      // Every request was either answered in full or refused before it was read (Fastify's 503 once
      // closing, or a connection the closed listener never accepted): a client retries those.
      for (const a of answers) {
        if (a.status === 200) expect(a.body.code).toBe(0);
        else expect([503, -1], JSON.stringify(a.body)).toContain(a.status);
      }
      // Some refunds were still in flight when the listener closed (after the 300 ms delay) and were answered.
      const lines = s.log().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { time: number; msg: string; route?: string; status?: number });
      const closedAt = lines.find((l) => l.msg === 'shutting down')!.time + 300;
      expect(lines.filter((l) => l.msg === 'request' && l.route === '/api/txn/refund' && l.status === 200 && l.time > closedAt).length).toBeGreaterThan(0);
      const refunded = answers.filter((a) => a.body.data?.code === 0).length;
      expect(refunded, JSON.stringify(answers.map((a) => a.body))).toBeGreaterThan(0);

      // The data as a restarted server finds it: exactly the refunds answered "refunded", once each.
      const reopened = await openDb({ databaseUrl: db?.url, dataDir });
      try {
        const { rows } = await reopened.query<{ n: number; sum: number; ret: number }>(
          `SELECT (SELECT count(*)::int FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD') AS n,
                  (SELECT coalesce(sum(amount), 0)::int FROM txn WHERE origin_txn_id = $1 AND tran_type = 'REFD') AS sum,
                  (SELECT return_amount FROM txn WHERE id = $1) AS ret`,
          [row!.id],
        );
        expect(rows[0]).toEqual({ n: refunded, sum: refunded, ret: refunded });
        // No job left claimed by the process that ended.
        const stuck = await reopened.query<{ n: number }>(`SELECT count(*)::int AS n FROM job WHERE status = 'running'`);
        expect(stuck.rows[0].n).toBe(0);
      } finally {
        await reopened.close();
      }
    } finally {
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
