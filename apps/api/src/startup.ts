import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './plugins/context';
import { isEmpty, seedFoundation } from './seed/foundation.seed';
import { seedFirstStart } from './seed/demo-data';
import { startJobRunner } from './jobs/start';
import { setUpPartitionJobs } from './jobs/partitions.job';
import { setUpDayCountJobs } from './jobs/day-counts.job';
import { rebuildDeferredIndexes } from './db/bulk-load';
import { MODULES } from './modules/index';
import { enabledModules, moduleJobs } from './modules/contract';
import { initModules } from './modules/registry';

/**
 * First start on an empty database: the development seed (never in production). Returns whether
 * it seeded. Later modules (payment core) extend the demo data here.
 */
export async function firstStart(deps: Deps): Promise<boolean> {
  // A bulk load that a crash cut short left indexes to build (db/bulk-load.ts): built before serving.
  await rebuildDeferredIndexes(deps.db);
  // Issues 25, 46, 47: every sealed secret (gateway connection keys, webhook signing secrets) needs
  // its key — production refuses to start without a usable one; elsewhere it is said once here.
  // (The modules' start-up checks, their manifests' `checks`.)
  for (const m of enabledModules(MODULES, deps.config)) {
    for (const check of m.checks ?? []) {
      const problem = await check(deps);
      if (problem) console.warn(`warning: ${problem} — calls needing it answer 503`);
    }
  }
  if (!deps.config.seedDemo || !(await isEmpty(deps.db))) return false;
  // The seed runs module code (a pay-by-link order paid through the checkout settles through the
  // acquirer's hook), in a process of its own that builds no app (decision 077): the modules' hooks first.
  initModules(deps);
  await seedFoundation(deps.db, { env: deps.config.env });
  // Payment core: fee schedules, bank accounts, FX, config.seedDays of transactions, settled.
  await seedFirstStart(deps.db, { days: deps.config.seedDays, platformTz: deps.config.platformTz, now: deps.clock.now() });
  // The modules' parts (their manifests' `seed`), in the list's order: a demo notice's PDF
  // attachment (Files download), pay-by-link orders in every state (one paid through the sandbox).
  for (const m of enabledModules(MODULES, deps.config)) await m.seed?.(deps);
  for (const m of enabledModules(MODULES, deps.config)) await m.afterSeed?.(deps);
  return true;
}

/** Background work of a running server (durable jobs, the daily settlement schedule). */
export function startBackground(deps: Deps, log: FastifyBaseLogger): (graceMs?: number) => Promise<boolean> {
  void deps;
  void log;
  // Issue 25: the acquirer's pending operations, the gateway feed's inbox and daily reconciliation.
  // The modules' own loops (the export queue's worker) and job kinds come from their manifests.
  const modules = enabledModules(MODULES, deps.config);
  const stops = [...modules.flatMap((m) => (m.workers ?? []).map((start) => start(deps, log))), startJobRunner(deps, log, [setUpPartitionJobs, setUpDayCountJobs, ...moduleJobs(modules)])];
  // Shutdown (issue 27): both stop taking work and wait (up to graceMs) for what they have in hand;
  // resolves to true when something was handed back (its handler is abandoned, still running).
  return async (graceMs?: number) => (await Promise.all(stops.map((stop) => stop(graceMs)))).some(Boolean);
}
