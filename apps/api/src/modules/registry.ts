import type { FastifyInstance } from 'fastify';
import type { Deps } from '../plugins/context';

/**
 * Registers the domain modules (transactions, reports, pay by link …). Each module adds its own
 * line here, so every URL can still be found with grep from app.ts.
 */
export function registerModules(app: FastifyInstance, deps: Deps): void {
  void app;
  void deps;
}
