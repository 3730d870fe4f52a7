import type { Deps } from '../../plugins/context';
import { addConnection, addKey, listConnections } from '../gateway';
import type { DisputeKind, DisputeState } from './disputes.machine';
import { receiveDispute } from './disputes.receive';
import { expireOverdue } from './disputes.service';
import { DEMO } from '../../seed/foundation.seed';
import { addDays, platformDate, zonedInstant } from '../payments';

const REASONS: Record<string, string[]> = {
  visa: ['10.4', '13.1', '12.6', '13.3'],
  mastercard: ['4837', '4853', '4855'],
  unionpay: ['4501', '4570'],
  jcb: ['541', '554'],
  amex: ['F29', 'C08'],
};

/** What the sandbox needs (a running server's deps, or the seed CLI's database, clock and config). */
export type SandboxDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

type Plan = [DisputeKind, DisputeState, number | 'tomorrow'];
/**
 * One purchase each, in this order: every kind and state, one due tomorrow (in the platform's
 * zone: 1 day left whatever the hour), a partial one every third; the won chargeback's purchase
 * also gets a pre-arbitration (it follows a won chargeback); 'expired' arrives overdue and expires.
 */
const PLAN: Plan[] = [
  ['chargeback', 'needs_response', 'tomorrow'],
  ['chargeback', 'needs_response', 9],
  ['inquiry', 'needs_response', 5],
  ['chargeback', 'under_review', 12],
  ['chargeback', 'won', 20],
  ['chargeback', 'lost', 20],
  ['chargeback', 'accepted', 20],
  ['inquiry', 'expired', -1],
];
export const SANDBOX_PLAN_SIZE = PLAN.length;

/**
 * The sandbox acquirer's disputes (issue 48, development and tests only): raises disputes on the
 * demo merchants' recent successful purchases — every kind and state, one due tomorrow — through
 * the same receive path as the provider API. `count` purchases at most; returns what it raised.
 */
export async function raiseSandboxDisputes(deps: SandboxDeps, o: { count?: number; merIds?: string[]; olderThanDays?: number } = {}) {
  const now = deps.clock.now();
  const tz = deps.config.platformTz;
  const { rows } = await deps.db.query<{ gw_trans_id: string; amount: string; currency: string; payment_brand: string | null }>(
    `SELECT t.gw_trans_id, t.amount, t.currency::text AS currency, t.payment_brand FROM txn t
      WHERE t.tran_type = 'PURC' AND t.gw_response = '00' AND t.return_amount = 0 AND t.disputed_amount = 0 AND t.txn_time > $1::timestamptz - interval '60 days'
        AND t.txn_time <= $1::timestamptz - make_interval(days => $4::int)
        AND ($3::text[] IS NULL OR t.mer_id = ANY($3::text[]))
        AND NOT EXISTS (SELECT 1 FROM dispute d WHERE d.purchase_id = t.id)
      ORDER BY t.txn_time DESC, t.id DESC LIMIT $2`,
    [now, o.count ?? PLAN.length, o.merIds ?? null, o.olderThanDays ?? 0],
  );
  const ctx = { platformTz: tz, now, by: 'sandbox' };
  const tomorrow = zonedInstant(addDays(platformDate(now, tz), 1), tz, 20 * 60);
  const out: { gwDisputeId: string; kind: DisputeKind; state: DisputeState }[] = [];
  for (const [i, r] of rows.entries()) {
    const [kind, state, days] = PLAN[i % PLAN.length];
    const brand = (r.payment_brand ?? '').toLowerCase();
    const codes = REASONS[brand] ?? ['R' + String(10 + i)];
    const gwDisputeId = `SBX-DSP-${r.gw_trans_id.slice(-10)}-${i}`;
    const partial = i % 3 === 1;
    const amount = partial ? Math.max(1, Math.floor(Number(r.amount) / 2)) : Number(r.amount);
    const base = { gwTransId: r.gw_trans_id, reasonCode: codes[i % codes.length], amount, currency: r.currency.trim() };
    await deps.db.tx((q) =>
      receiveDispute(
        q,
        {
          ...base,
          gwDisputeId,
          kind,
          state: state === 'expired' ? 'needs_response' : state,
          deadline: days === 'tomorrow' ? tomorrow : new Date(now.getTime() + days * 86_400_000),
        },
        ctx,
      ),
    );
    out.push({ gwDisputeId, kind, state });
    if (kind === 'chargeback' && state === 'won') {
      // The cardholder's bank goes on: a pre-arbitration on the same purchase, open.
      const pre = `${gwDisputeId}-PA`;
      await deps.db.tx((q) => receiveDispute(q, { ...base, gwDisputeId: pre, kind: 'pre_arbitration', state: 'needs_response', deadline: new Date(now.getTime() + 14 * 86_400_000) }, ctx));
      out.push({ gwDisputeId: pre, kind: 'pre_arbitration', state: 'needs_response' });
    }
  }
  // The one that arrived overdue expires now, as the deadline job would make it.
  if (out.some((d) => d.state === 'expired')) await expireOverdue(deps);
  return out;
}

/**
 * The demo seed's disputes (first start and `npm run seed`): the sandbox's plan on each demo
 * merchant's recent purchases, once (a merchant that already has disputes is left as it is).
 */
/** The demo seed leaves the purchases of this many last days undisputed. */
export const DEMO_FREE_DAYS = 2;

export async function seedDemoDisputes(deps: SandboxDeps): Promise<number> {
  let n = 0;
  for (const merId of [DEMO.group, DEMO.subA, DEMO.subB, DEMO.other]) {
    const { rows } = await deps.db.query('SELECT 1 FROM dispute WHERE mer_id = $1 LIMIT 1', [merId]);
    if (rows.length) continue;
    // A share of the purchases, not the newest: those of the last two days stay free of disputes, so
    // a merchant trying the portal (or a test) refunds today's purchases as before.
    n += (await raiseSandboxDisputes(deps, { merIds: [merId], olderThanDays: DEMO_FREE_DAYS })).length;
  }
  return n;
}

/** A settled purchase of a merchant without a dispute (for a test to dispute over the provider API), or null. */
export async function sandboxPurchase(deps: SandboxDeps, merId: string) {
  const { rows } = await deps.db.query<{ id: string; gw_trans_id: string; amount: string; currency: string; order_no: string }>(
    `SELECT t.id, t.gw_trans_id, t.amount, t.currency::text AS currency, t.order_no FROM txn t
      WHERE t.mer_id = $1 AND t.tran_type = 'PURC' AND t.gw_response = '00' AND t.return_amount = 0 AND t.settle_date IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM dispute d WHERE d.purchase_id = t.id) ORDER BY t.txn_time DESC LIMIT 1`,
    [merId],
  );
  return rows[0] ?? null;
}

/** A signing key of the sandbox's own gateway connection (created for every merchant), for a test to report disputes over the provider API. */
export async function sandboxGatewayKey(deps: Deps): Promise<{ connection: string; keyId: string; secret: string }> {
  const id = 'sandbox-disputes';
  const { rows } = await deps.db.query<{ mer_id: string }>('SELECT mer_id FROM merchant ORDER BY mer_id');
  const existing = (await listConnections(deps.db)).find((c) => c.id === id);
  if (!existing) await addConnection(deps.db, { id, name: 'Sandbox disputes', merchants: rows.map((r) => r.mer_id) }, 'dev');
  const k = await addKey(deps.db, deps.config, id, 'dev');
  return { connection: id, keyId: k.keyId, secret: k.secret };
}
