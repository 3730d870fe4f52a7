import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { teamRoutes } from './team.routes';
import { registerAuditExport } from './audit.service';
import { roleRoutes } from './roles.routes';
import { approvalRoutes } from './approvals.routes';
import { accessRoutes } from './access.routes';

/** Team: user management with roles and merchant scope, and the audit log viewer (issue 12). */
export function teamModule(app: FastifyInstance, deps: Deps): void {
  registerAuditExport();
  teamRoutes(app, deps);
  roleRoutes(app, deps);
  approvalRoutes(app, deps);
  accessRoutes(app, deps);
}
