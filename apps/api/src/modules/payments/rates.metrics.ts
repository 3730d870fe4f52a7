import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/types';
import { waitingForRate } from './rates.waiting';

/**
 * /metrics figures of exchange rates (issue 46, docs/operations.md "Exchange rates"), read from the
 * database at scrape time into the per-app registry: the transactions a settlement run left
 * unsettled for want of a rate, per pair ('USD>HKD'). Database-wide figures: every process reads
 * the same rows, so the cluster aggregate takes the max. Alerted on by PortalFxRateMissing.
 */
export function registerFxMetrics(reg: Registry, db: Db): void {
  new Gauge({
    name: 'portal_settlement_fx_waiting_rows',
    help: 'Transactions waiting for an exchange rate of their pair (from>to) before a settlement run can settle them',
    labelNames: ['pair'],
    registers: [reg],
    aggregator: 'max',
    async collect() {
      this.reset();
      const w = await waitingForRate(db).catch(() => null);
      if (!w) return;
      this.set({ pair: 'all' }, w.total);
      for (const p of w.pairs) this.set({ pair: p.pair }, p.count);
    },
  });
}
