import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { accountRoutes } from './account.routes';

/** Accounts: activation, password change / reset / expiry, phone and WeChat binding, TOTP, sessions. */
export function accountModule(app: FastifyInstance, deps: Deps): void {
  accountRoutes(app, deps);
}
