import type { Deps } from '../plugins/context';
import { createJobRunner, type JobHandler, type JobLog, type JobRunner } from './runner';

/** A module's background set-up: makes sure its schedules exist and returns its job handlers by kind. */
export type JobSetup = (deps: Deps) => Promise<Record<string, JobHandler>>;

/**
 * Starts the durable job runner of this process: first each module's set-up (its schedules, its
 * handlers), then polling. Returns a stop function.
 */
export function startJobRunner(deps: Deps, log: JobLog, setups: JobSetup[]): (graceMs?: number) => Promise<boolean> {
  let runner: JobRunner | null = null;
  let stopped = false;
  const ready = (async () => {
    const handlers: Record<string, JobHandler> = {};
    for (const setUp of setups) Object.assign(handlers, await setUp(deps));
    if (stopped) return;
    runner = createJobRunner({ db: deps.db, clock: deps.clock, log, handlers });
    runner.start();
    void runner.tick();
  })().catch((err) => log.error({ err }, 'job runner failed to start'));
  // With graceMs (shutdown): the job in hand gets that long, then is handed back (runner.stop);
  // resolves to true when one was.
  return async (graceMs?: number) => {
    stopped = true;
    await ready;
    return (await runner?.stop(graceMs)) ?? false;
  };
}
