import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './plugins/context';
import { isEmpty, seedFoundation } from './seed/foundation.seed';
import { startExportWorker } from './modules/export/export.service';
import { seedFirstStart } from './seed/demo-data';
import { startJobRunner } from './jobs/start';
import { setUpPaymentJobs } from './modules/payments/payments.background';
import { seedPayByLinkDemo } from './modules/paybylink/paybylink.seed';
import { setUpTeamJobs } from './modules/team/audit.service';
import { setUpAccessJobs } from './modules/team/access.job';
import { setUpScheduleJobs } from './modules/schedule/schedule.jobs';
import { setUpFilesJobs } from './modules/files/files.background';
import { setUpPartitionJobs } from './jobs/partitions.job';
import { setUpDayCountJobs } from './jobs/day-counts.job';
import { setUpAcquirerJobs } from './modules/acquirer/acquirer.jobs';
import { seedNoticeAttachment } from './modules/notice/attachment.service';
import { rebuildDeferredIndexes } from './db/bulk-load';
import { assertProviderKey } from './modules/gateway/gateway.service';
import { setUpGatewayJobs } from './modules/gateway/gateway.background';
import { setUpWebhookJobs } from './modules/webhook/webhook.deliver';

/**
 * First start on an empty database: the development seed (never in production). Returns whether
 * it seeded. Later modules (payment core) extend the demo data here.
 */
export async function firstStart(deps: Deps): Promise<boolean> {
  // A bulk load that a crash cut short left indexes to build (db/bulk-load.ts): built before serving.
  await rebuildDeferredIndexes(deps.db);
  // Issues 25, 46, 47: every sealed secret (gateway connection keys, webhook signing secrets) needs
  // its key — production refuses to start without a usable one; elsewhere it is said once here.
  const keyProblem = await assertProviderKey(deps.db, deps.config);
  if (keyProblem) console.warn(`warning: ${keyProblem} — calls needing it answer 503`);
  if (!deps.config.seedDemo || !(await isEmpty(deps.db))) return false;
  await seedFoundation(deps.db, { env: deps.config.env });
  // Files download: a demo notice carries a PDF attachment.
  await seedNoticeAttachment(deps.db, deps.config.dataDir);
  // Payment core: fee schedules, bank accounts, FX, config.seedDays of transactions, settled.
  await seedFirstStart(deps.db, { days: deps.config.seedDays, platformTz: deps.config.platformTz, now: deps.clock.now() });
  // Pay by link: a few orders in every state (one paid through the sandbox, so it is a transaction too).
  await seedPayByLinkDemo(deps);
  return true;
}

/** Background work of a running server (durable jobs, the daily settlement schedule). */
export function startBackground(deps: Deps, log: FastifyBaseLogger): (graceMs?: number) => Promise<boolean> {
  void deps;
  void log;
  // Issue 25: the acquirer's pending operations, the gateway feed's inbox and daily reconciliation.
  const stops = [
    startExportWorker(deps, log),
    startJobRunner(deps, log, [
      setUpPartitionJobs,
      setUpDayCountJobs,
      setUpPaymentJobs,
      setUpTeamJobs,
      setUpAccessJobs,
      setUpScheduleJobs,
      setUpFilesJobs,
      setUpAcquirerJobs,
      setUpGatewayJobs,
      setUpWebhookJobs,
    ]),
  ];
  // Shutdown (issue 27): both stop taking work and wait (up to graceMs) for what they have in hand;
  // resolves to true when something was handed back (its handler is abandoned, still running).
  return async (graceMs?: number) => (await Promise.all(stops.map((stop) => stop(graceMs)))).some(Boolean);
}
