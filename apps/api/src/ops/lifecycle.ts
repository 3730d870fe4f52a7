/**
 * What this process knows of its own life, for /readyz (plugins/health.ts) and the shutdown
 * (server.ts): whether shutdown has begun, and when the job runner last showed it is alive.
 * One per process (each API process of WORKERS=N has its own).
 */

/** A job runner whose loop has not ticked for this long (and holds no job) is not alive. */
const RUNNER_IDLE_BOUND_MS = 60_000;

interface RunnerBeat {
  /** performance.now() of the last poll (or claim, or job heartbeat). */
  at: number;
  /** performance.now() at which the job in hand was claimed or last heartbeat, null when idle. */
  jobSince: number | null;
  /** How long a job may go without a heartbeat before another process takes it over. */
  staleMs: number;
}

const state = {
  shuttingDown: false,
  runners: new Map<string, RunnerBeat>(),
};

/** Shutdown has begun: /readyz answers 503 from now on. */
export function beginShutdown(): void {
  state.shuttingDown = true;
}
export function isShuttingDown(): boolean {
  return state.shuttingDown;
}
/** Tests: back to a fresh process's state. */
export function resetLifecycle(): void {
  state.shuttingDown = false;
  state.runners.clear();
}

/** A runner's loop ticked (polled the queue). */
export function runnerTicked(id: string, staleMs: number): void {
  const r = state.runners.get(id);
  state.runners.set(id, { at: performance.now(), jobSince: r?.jobSince ?? null, staleMs });
}
/** A runner took a job (or heartbeat one): alive while the job's step is shorter than its stale bound. */
export function runnerBusy(id: string, busy: boolean): void {
  const r = state.runners.get(id);
  if (!r) return;
  r.at = performance.now();
  r.jobSince = busy ? performance.now() : null;
}
/** A stopped runner no longer counts. */
export function runnerStopped(id: string): void {
  state.runners.delete(id);
}

export interface RunnerCheck {
  ok: boolean;
  /** Runners of this process, each with seconds since it last ticked. */
  runners: { lastTickSeconds: number; busy: boolean }[];
  detail?: string;
}

/**
 * Whether this process's job runner is alive: it ticked within RUNNER_IDLE_BOUND_MS, or it is in a
 * job whose step started (or last heartbeat) within that job's stale bound.
 */
export function runnerCheck(now = performance.now()): RunnerCheck {
  const runners = [...state.runners.values()];
  if (!runners.length) return { ok: false, runners: [], detail: 'no job runner started in this process' };
  const alive = (r: RunnerBeat) => now - r.at < RUNNER_IDLE_BOUND_MS || (r.jobSince !== null && now - r.jobSince < r.staleMs);
  const ok = runners.every(alive);
  return {
    ok,
    runners: runners.map((r) => ({ lastTickSeconds: Math.round((now - r.at) / 100) / 10, busy: r.jobSince !== null })),
    ...(ok ? {} : { detail: 'a job runner has not ticked recently' }),
  };
}
