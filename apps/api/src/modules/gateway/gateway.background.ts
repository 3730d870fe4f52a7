import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../plugins/context';
import { ensureRecurringJob } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/runner';
import { platformDate } from '../../lib/zone';
import { addDays } from '../../lib/dates';
import { formatOf, importFile, type ImportReport } from './import.service';
import { purgeSeenSignatures } from './gateway.service';
import { reconcileDay } from './recon.service';
import { importRatesFile, isRatesFile, type RatesFileReport } from '../payments';

/**
 * Files of the gateway inbox another module reads (issue 48: the daily dispute file), registered by
 * that module's `init` — the gateway module names no module that builds on it. A handler that
 * claims a file's name imports it; the file then moves to `done/` like the others.
 */
export interface InboxFileHandler {
  claims: (name: string) => boolean;
  importFile: (deps: Pick<Deps, 'db' | 'clock' | 'config'>, file: string, o: { connectionId: string }) => Promise<unknown>;
}
const inboxHandlers = new Set<InboxFileHandler>();
export function addInboxFileHandler(h: InboxFileHandler): void {
  inboxHandlers.add(h);
}

export const INBOX_JOB = 'gateway.inbox';
export const RECON_JOB = 'gateway.reconcile';
const INBOX_EVERY_MS = 30_000;
const RECON_EVERY_MS = 24 * 3600_000;

/**
 * The inbox: DATA_DIR/inbox (or IMPORT_INBOX)/<connection id>/*.csv|*.jsonl. Each file is imported
 * (resuming an interrupted import), then moved to <connection id>/done/. A file imported before is
 * recognised by its content hash and only moved. A daily rates file (`*.rates.csv`, issue 46) is
 * stored through the exchange-rate rules (rates.file.ts); its report goes to `rates`.
 */
export async function sweepInbox(deps: Pick<Deps, 'db' | 'config' | 'clock'>, heartbeat?: () => Promise<void>, rates: RatesFileReport[] = []): Promise<ImportReport[]> {
  const inbox = deps.config.importInbox ?? path.join(deps.config.dataDir, 'inbox');
  if (!fs.existsSync(inbox)) return [];
  const { rows: conns } = await deps.db.query<{ id: string }>('SELECT id FROM gateway_connection WHERE enabled');
  const reports: ImportReport[] = [];
  for (const c of conns) {
    const dir = path.join(inbox, c.id);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (!formatOf(name) || !fs.statSync(file).isFile()) continue;
      // Issue 48: a file another module reads (the daily dispute file, `*.disputes.jsonl`).
      const handler = [...inboxHandlers].find((h) => h.claims(name));
      if (handler) {
        await handler.importFile(deps, file, { connectionId: c.id });
        fs.mkdirSync(path.join(dir, 'done'), { recursive: true });
        fs.renameSync(file, path.join(dir, 'done', name));
        continue;
      }
      if (isRatesFile(name)) {
        rates.push(await importRatesFile(deps.db, file, { connectionId: c.id, now: deps.clock.now(), platformTz: deps.config.platformTz }));
        fs.mkdirSync(path.join(dir, 'done'), { recursive: true });
        fs.renameSync(file, path.join(dir, 'done', name));
        continue;
      }
      const r = await importFile(deps.db, file, { connectionId: c.id, platformTz: deps.config.platformTz, now: deps.clock.now(), window: deps.config.feedWindow, afterChunk: heartbeat });
      reports.push(r);
      fs.mkdirSync(path.join(dir, 'done'), { recursive: true });
      fs.renameSync(file, path.join(dir, 'done', name));
    }
  }
  return reports;
}

/** The gateway feed's schedules: the inbox sweep (every 30 s) and the daily reconciliation of yesterday. */
export async function setUpGatewayJobs(deps: Deps): Promise<Record<string, JobHandler>> {
  await ensureRecurringJob(deps.db, { kind: INBOX_JOB, uniqueKey: INBOX_JOB, runAt: deps.clock.now() });
  await ensureRecurringJob(deps.db, { kind: RECON_JOB, uniqueKey: RECON_JOB, runAt: deps.clock.now() });
  return {
    [INBOX_JOB]: async ({ clock, heartbeat }) => {
      const rates: RatesFileReport[] = [];
      const reports = await sweepInbox(deps, () => heartbeat(), rates);
      return {
        result: {
          files: reports.map((r) => ({ file: r.fileName, id: r.fileId, accepted: r.accepted, duplicate: r.duplicate, rejected: r.rejected, controlOk: r.controlOk })),
          rates: rates.map((r) => ({ file: r.fileName, id: r.fileId, stored: r.stored, unchanged: r.unchanged, rejected: r.rejected, message: r.message })),
        },
        nextRunAt: new Date(clock.now().getTime() + INBOX_EVERY_MS),
      };
    },
    [RECON_JOB]: async ({ db, clock }) => {
      const yesterday = addDays(platformDate(clock.now(), deps.config.platformTz), -1);
      const results = await reconcileDay(db, yesterday, { platformTz: deps.config.platformTz });
      const purged = await purgeSeenSignatures(db, clock.now());
      return { result: { date: yesterday, results, purged }, nextRunAt: new Date(clock.now().getTime() + RECON_EVERY_MS) };
    },
  };
}
