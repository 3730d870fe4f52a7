import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { reportRoutes } from './report.routes';
import { dashboardRoutes } from './dashboard.routes';

/** The reports module: bill, transfer, daily summary (new and old), reserve release, cash calendar. */
export function reportModule(app: FastifyInstance, deps: Deps): void {
  reportRoutes(app, deps);
  dashboardRoutes(app, deps);
}
