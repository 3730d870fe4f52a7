import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { opsRoutes } from './ops.routes';

/** The provider's back office (issue 26, decision 038): the ops API under /api/ops/. */
export function opsModule(app: FastifyInstance, deps: Deps): void {
  opsRoutes(app, deps);
}
