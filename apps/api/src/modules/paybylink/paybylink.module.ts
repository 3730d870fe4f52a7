import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { payByLinkRoutes } from './paybylink.routes';
import { payByLinkFileRoutes } from './paybylink.files.routes';
import { registerPblExport } from './paybylink.export';
import { checkoutRoutes } from '../checkout/checkout.routes';

/** Pay by link: the merchant's orders (/api/payByLink/*) and the buyer's hosted checkout (/api/checkout/*). */
export function payByLinkModule(app: FastifyInstance, deps: Deps): void {
  registerPblExport();
  payByLinkRoutes(app, deps);
  payByLinkFileRoutes(app, deps);
  checkoutRoutes(app, deps);
}
