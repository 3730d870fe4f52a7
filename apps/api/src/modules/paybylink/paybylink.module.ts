import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { payByLinkRoutes } from './paybylink.routes';
import { payByLinkFileRoutes } from './paybylink.files.routes';
import { registerPblExport } from './paybylink.export';

/** Pay by link: the merchant's orders (/api/payByLink/*)(the buyer's hosted checkout is the checkout module, listed next). */
export function payByLinkModule(app: FastifyInstance, deps: Deps): void {
  registerPblExport();
  payByLinkRoutes(app, deps);
  payByLinkFileRoutes(app, deps);
}
