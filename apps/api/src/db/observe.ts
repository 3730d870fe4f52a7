/**
 * Where every statement of every Db reports its time (the metrics plugin listens; nothing does
 * until it is loaded). Kept apart from metrics so db.ts does not depend on prom-client.
 */
export interface QueryObserver {
  start(engine: 'pglite' | 'postgres'): void;
  end(engine: 'pglite' | 'postgres', seconds: number, ok: boolean): void;
}

let observer: QueryObserver | null = null;

export function setQueryObserver(o: QueryObserver | null): void {
  observer = o;
}

/** Runs one statement under the observer. */
export async function observed<T>(engine: 'pglite' | 'postgres', run: () => Promise<T>): Promise<T> {
  const o = observer;
  if (!o) return run();
  o.start(engine);
  const t0 = performance.now();
  let ok = false;
  try {
    const out = await run();
    ok = true;
    return out;
  } finally {
    o.end(engine, (performance.now() - t0) / 1000, ok);
  }
}
