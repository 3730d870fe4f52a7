import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { payInStoreRoutes } from './payinstore.routes';
import { storeCheckoutRoutes } from './store-checkout.routes';
import { payInStoreExportRoutes } from './payinstore.export';
import { cashierRoutes } from './cashier.routes';

/** Stores, pay in store (/api/payInStore/*), the stores' static QR (/api/checkout/store/*) and cashiers. */
export function storeModule(app: FastifyInstance, deps: Deps): void {
  payInStoreExportRoutes(app, deps);
  payInStoreRoutes(app, deps);
  storeCheckoutRoutes(app, deps);
  cashierRoutes(app, deps);
}
