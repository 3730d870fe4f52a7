/**
 * The paybylink module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { registerChargeOrder } from '../acquirer';
import { payByLinkModule } from './paybylink.module';
import { PAYLINK_EVENTS } from './paybylink.events';
import { followCharge } from './paybylink.charge';

/** Pay by link: the merchant's orders (/api/payByLink/*); the demo seed's orders are the checkout's (they are paid through it). */
export const manifest = defineModule({
  name: 'paybylink',
  routes: payByLinkModule,
  webhookEvents: PAYLINK_EVENTS,
  // A charge's final result settles the order it paid, whoever learnt it (the acquirer names no module above it).
  init: () => registerChargeOrder(followCharge),
});

// What other modules use of it (issue 45 §2: through this door only).
export { sniffFileType } from './file-type';
export { STATE_LABELS } from './paybylink.export';
export { linkBaseOf, payLink, toActivity, toOrder } from './paybylink.mapper';
export { checkPblRange } from './paybylink.range';
export { closeOpenOrder, insertOrder } from './paybylink.repo';
export { addEvent, claimForPayment, countOrders, expireDue, findOrder, iterateOrders, lastOpened, listEvents, listOrders, orderWhere, settlePayment } from './paybylink.repo';
export type { PblDbRow, Where } from './paybylink.repo';
export { closeOrder, createOrder, loadOrder, mergeMetadata, orderChanged, updateOrder, updateOrderMetadata } from './paybylink.service';
export { outcomeOf, syncProcessing } from './paybylink.sync';
