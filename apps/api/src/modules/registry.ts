import type { FastifyInstance } from 'fastify';
import type { Deps } from '../plugins/context';
import { txnModule } from './txn/txn.module';
import { exportRoutes } from './export/export.routes';
import { payByLinkModule } from './paybylink/paybylink.module';
import { reportModule } from './report/report.module';
import { teamModule } from './team/team.module';
import { storeModule } from './store/store.module';
import { accountModule } from './account/account.module';
import { chatRoutes } from './chat/chat.routes';
import { gatewayRoutes } from './gateway/gateway.routes';
import { webhookRoutes } from './webhook/webhook.routes';
import { apiKeyRoutes } from './apikey/apikey.routes';
import { opsModule } from './ops/ops.module';
import { registerFxMetrics } from './payments';
import { addMetricSource } from '../plugins/metrics';

/**
 * Registers the domain modules (transactions, reports, pay by link …). Each module adds its own
 * line here, so every URL can still be found with grep from app.ts.
 */
export function registerModules(app: FastifyInstance, deps: Deps): void {
  void app;
  void deps;
  // Exchange rates (issue 46): transactions waiting for a rate, on /metrics.
  addMetricSource(registerFxMetrics);
  txnModule(app, deps);
  exportRoutes(app, deps);
  payByLinkModule(app, deps);
  reportModule(app, deps);
  teamModule(app, deps);
  storeModule(app, deps);
  accountModule(app, deps);
  chatRoutes(app, deps);
  gatewayRoutes(app, deps);
  webhookRoutes(app, deps);
  apiKeyRoutes(app, deps);
  opsModule(app, deps);
}
