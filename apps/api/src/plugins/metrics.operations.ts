import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/types';

/**
 * What an operator pages on (issue 46, docs/operations.md "Business gauges"): webhook deliveries
 * failing and endpoints disabled, the reconciliation's differences per gateway connection, and the
 * portal's outbound gateway operations (refunds, voids, charges) left processing. Read from the
 * database at scrape time — one read per scrape shared by the gauges, each statement on a small
 * table or a partial index (pending deliveries, given-up deliveries, pending operations; the last
 * reconciled day of each connection) — and DB-wide: under WORKERS=N the aggregate takes the max.
 */

/** The reconciliation's kinds (recon.service.ts): every one is reported, 0 included, for each connection. */
const RECON_KINDS = ['missing', 'extra', 'amount', 'status', 'total', 'unreported'] as const;
const DISABLED_REASONS = ['failing', 'user'] as const;
const OPERATION_KINDS = ['refund', 'void', 'charge'] as const;

interface Figures {
  webhookRetrying: number;
  webhookFailed1h: number;
  endpointsDisabled: Map<string, number>;
  recon: { connection: string; kind: string; n: number }[];
  operations: { kind: string; n: number; age: number }[];
}

async function readFigures(db: Db): Promise<Figures> {
  const wh = await db.query<{ retrying: number; failed: number }>(
    `SELECT (SELECT count(*)::int FROM webhook_delivery WHERE state = 'pending' AND attempts > 0) AS retrying,
            (SELECT count(*)::int FROM webhook_delivery WHERE state = 'failed' AND last_attempt_at > now() - interval '1 hour') AS failed`,
  );
  const ep = await db.query<{ reason: string; n: number }>(`SELECT disabled_reason AS reason, count(*)::int AS n FROM webhook_endpoint WHERE NOT enabled GROUP BY 1`);
  // Each enabled connection's last reconciled day, its differences per kind.
  const rc = await db.query<{ connection: string; kind: string | null; n: number }>(
    `WITH last AS (
       SELECT c.id AS connection, (SELECT max(r.txn_date) FROM recon_run r WHERE r.connection_id = c.id) AS day
         FROM gateway_connection c WHERE c.enabled)
     SELECT l.connection, d.kind, count(d.id)::int AS n
       FROM last l LEFT JOIN recon_difference d ON d.connection_id = l.connection AND d.txn_date = l.day
      GROUP BY 1, 2`,
  );
  const op = await db.query<{ kind: string; n: number; age: number }>(
    `SELECT kind, count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS age
       FROM acquirer_operation WHERE state = 'pending' GROUP BY 1`,
  );
  return {
    webhookRetrying: wh.rows[0].retrying,
    webhookFailed1h: wh.rows[0].failed,
    endpointsDisabled: new Map(ep.rows.map((r) => [r.reason, r.n])),
    recon: rc.rows
      .filter((r) => r.kind !== null)
      .map((r) => ({ connection: r.connection, kind: r.kind!, n: r.n }))
      .concat(
        // Every connection gets every kind (0 when none), so an alert resolves and a dashboard has a series.
        [...new Set(rc.rows.map((r) => r.connection))].flatMap((connection) =>
          RECON_KINDS.filter((k) => !rc.rows.some((r) => r.connection === connection && r.kind === k)).map((kind) => ({ connection, kind, n: 0 })),
        ),
      ),
    operations: op.rows,
  };
}

/** Registers the gauges in `reg` (the per-app registry of plugins/metrics.ts, merged on each scrape). */
export function registerOperationsGauges(db: Db, reg: Registry): void {
  let pending: Promise<Figures | null> | null = null;
  const read = () =>
    (pending ??= readFigures(db)
      .catch(() => null)
      .finally(() => (pending = null)));
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge<string>, f: Figures) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [reg],
      aggregator: 'max',
      async collect() {
        const f = await read();
        this.reset();
        if (f) fill(this, f);
      },
    });
  gauge('portal_webhook_deliveries_retrying', 'Webhook deliveries pending after at least one failed attempt', [], (g, f) => g.set(f.webhookRetrying));
  gauge('portal_webhook_deliveries_failed_1h', 'Webhook deliveries given up (3 days of failed attempts) within the last hour', [], (g, f) => g.set(f.webhookFailed1h));
  gauge('portal_webhook_endpoints_disabled', 'Webhook endpoints switched off, by reason (failing: 3 days of failed deliveries; user)', ['reason'], (g, f) => {
    for (const reason of DISABLED_REASONS) g.set({ reason }, f.endpointsDisabled.get(reason) ?? 0);
  });
  gauge('portal_recon_differences', "Gateway feed reconciliation: differences of each enabled connection's last reconciled day, by kind", ['connection', 'kind'], (g, f) => {
    for (const r of f.recon) g.set({ connection: r.connection, kind: r.kind }, r.n);
  });
  gauge('portal_acquirer_operations_pending', 'Outbound gateway operations (refund, void, charge) still processing, by kind', ['kind'], (g, f) => {
    for (const kind of OPERATION_KINDS) g.set({ kind }, f.operations.find((o) => o.kind === kind)?.n ?? 0);
  });
  gauge('portal_acquirer_operation_oldest_pending_seconds', 'Age of the oldest outbound gateway operation still processing, by kind (0: none)', ['kind'], (g, f) => {
    for (const kind of OPERATION_KINDS) g.set({ kind }, Math.max(0, ...f.operations.filter((o) => o.kind === kind).map((o) => o.age)));
  });
}
