import pg from 'pg';

/**
 * Short read statements on a few pipelined connections (decision 053). node-postgres' Pool runs one
 * statement per connection at a time, so every list call costs a write that wakes a sleeping
 * backend, its reply, and a wake-up of this process: on a busy 2-core machine that round trip, not
 * the query, was most of the list's cost. Here a statement goes on a connection that may already be
 * working (pg's `pipeline: true`: written at once, answered in order, each with its own Sync, so an
 * error fails only its own statement), and the statements of one turn of the event loop leave in
 * one write (the socket is corked until `setImmediate`). The backend reads them together and
 * answers them together.
 *
 * Only for statements whose cost is bounded (a list's page and bounded count over its indexes, a
 * key look-up): a statement waits for the ones written before it on its connection, so a slow one
 * would hold up the rest. A connection takes statements until `depth` are in flight; then the next
 * is used, up to `connections`. A connection that fails is dropped (its statements fail, as they
 * would on the pool) and replaced by the next statement that needs one.
 */
export interface Pipeline {
  query(q: pg.QueryConfig): Promise<pg.QueryResult>;
  stats(): { total: number; idle: number };
  end(): Promise<void>;
}

interface Slot {
  client: pg.Client;
  ready: Promise<unknown>;
  inFlight: number;
  corked: boolean;
  broken: boolean;
}

type Corkable = { cork(): void; uncork(): void; writable: boolean };

const PIPELINE_DEPTH = 16;
/** Pipelined connections per process (DATABASE_PIPELINE_CONNECTIONS; 0 sends those statements to the generic plans' pool). */
export const DEFAULT_PIPELINE_CONNECTIONS = 4;

export function pipelined(cfg: pg.ClientConfig, connections: number, depth = PIPELINE_DEPTH): Pipeline {
  const slots: Slot[] = [];
  let ended = false;
  const open = (): Slot => {
    const client = new pg.Client({ ...cfg, pipeline: true } as pg.ClientConfig);
    const slot: Slot = { client, ready: client.connect(), inFlight: 0, corked: false, broken: false };
    const drop = () => {
      if (slot.broken) return;
      slot.broken = true;
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    slot.ready.catch(drop);
    slots.push(slot);
    return slot;
  };
  const pick = (): Slot => {
    for (const s of slots) if (s.inFlight < depth) return s;
    if (slots.length < connections) return open();
    let least = slots[0];
    for (const s of slots) if (s.inFlight < least.inFlight) least = s;
    return least;
  };
  return {
    async query(q) {
      if (ended) throw new Error('the database handle is closed');
      const slot = pick();
      slot.inFlight++;
      try {
        await slot.ready;
        const stream = (slot.client as unknown as { connection: { stream: Corkable } }).connection.stream;
        if (!slot.corked && stream.writable) {
          // The statements of this turn of the event loop go out in one write.
          slot.corked = true;
          stream.cork();
          setImmediate(() => {
            slot.corked = false;
            stream.uncork();
          });
        }
        return await slot.client.query(q);
      } finally {
        slot.inFlight--;
      }
    },
    stats: () => ({ total: slots.length, idle: slots.filter((s) => s.inFlight === 0).length }),
    async end() {
      ended = true;
      await Promise.all(slots.splice(0).map((s) => s.client.end().catch(() => undefined)));
    },
  };
}
