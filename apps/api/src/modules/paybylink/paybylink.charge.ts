import type { Queryable } from '../../db/db';
import type { SettledCharge } from '../acquirer';
import { addEvent, settlePayment } from './paybylink.repo';

/**
 * A charge for an order has its final result (the acquirer's operation settled it, whoever learnt
 * the answer): the order becomes paid or failed — once, a settled order stays as it is — with its
 * 'payment' event: the buyer's own answer names brand, channel and card; a later resolution (the
 * job, the feed, a status poll) says `resolved`. Registered with the acquirer from the manifest's
 * `init` (`registerChargeOrder`).
 */
export async function followCharge(q: Queryable, c: SettledCharge): Promise<void> {
  if (!(await settlePayment(q, c.orderId, c.outcome, c.txn.id, c.now))) return;
  const buyer = c.actor.kind === 'buyer';
  await addEvent(q, c.orderId, 'payment', buyer ? 'buyer' : 'system', c.now, {
    result: c.outcome,
    gwResponse: c.result.gwResponse,
    respMsg: c.result.respMsg,
    gwTransId: c.txn.gwTransId,
    ...(buyer ? { brand: c.request.brand, channel: c.request.channel, card: c.request.maskedCard ? `****${c.request.maskedCard.slice(-4)}` : null } : { resolved: true }),
  });
}
