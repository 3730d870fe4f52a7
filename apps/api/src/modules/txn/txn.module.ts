import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { txnRoutes } from './txn.routes';
import { settleRoutes } from './settle.routes';
import { settleDetailRoutes } from './settle-detail.routes';

/** The transactions module: list, detail, refund, exports, settle list, logistics, manual blend. */
export function txnModule(app: FastifyInstance, deps: Deps): void {
  txnRoutes(app, deps);
  settleRoutes(app, deps);
  settleDetailRoutes(app, deps);
}
