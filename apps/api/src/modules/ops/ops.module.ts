import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { registerTokenKind } from '../../plugins/auth';
import { opsRoutes } from './ops.routes';
import type { RouteSetup } from '../contract';
import { resolveViewAs, VIEW_AS_PREFIX, viewAsMayCall, viewAsRefused } from './view-as.service';

/** The provider's back office (issue 26, decision 038): the ops API under /api/ops/. */
export function opsModule(app: FastifyInstance, deps: Deps, extra: readonly RouteSetup[] = []): void {
  // A support operator's read-only view of a merchant (decision 046) signs in through the auth hook.
  registerTokenKind({ prefix: VIEW_AS_PREFIX, resolve: resolveViewAs, mayCall: viewAsMayCall, refused: viewAsRefused });
  opsRoutes(app, deps, extra);
}
