import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './plugins/context';
import { isEmpty, seedFoundation } from './seed/foundation.seed';

/**
 * First start on an empty database: the development seed (never in production). Returns whether
 * it seeded. Later modules (payment core) extend the demo data here.
 */
export async function firstStart(deps: Deps): Promise<boolean> {
  if (!deps.config.seedDemo || !(await isEmpty(deps.db))) return false;
  await seedFoundation(deps.db, { env: deps.config.env });
  return true;
}

/** Background work of a running server (durable jobs, the daily settlement schedule). */
export function startBackground(deps: Deps, log: FastifyBaseLogger): () => void {
  void deps;
  void log;
  return () => undefined;
}
