/**
 * The routing of `Db.read` (decision 024), on two PGlite databases standing in for a primary and
 * its replica: which one a statement reaches, by read scope, write, session window and failure.
 * The real streaming replica is exercised in test/replica.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEKEEPING, openPglite, runInReadScope, withReplica, type Db, type ReadScope } from './db';

describe('db.read routing', () => {
  let primary: Db;
  let replica: Db;
  let db: Db;
  /** Which database answered: each holds a one-row table naming itself. */
  const where = async () => (await db.read.query<{ name: string }>('SELECT name FROM whoami')).rows[0].name;

  beforeAll(async () => {
    primary = await openPglite();
    replica = await openPglite();
    for (const [d, name] of [
      [primary, 'primary'],
      [replica, 'replica'],
    ] as const) {
      await d.exec(`CREATE TABLE whoami (name text); INSERT INTO whoami VALUES ('${name}'); CREATE TABLE t (x int)`);
    }
    db = withReplica(primary, replica, { stickyMs: 200 });
  });
  afterAll(() => db?.close());

  it('without a replica, read is the primary', async () => {
    // `primary` as opened, before withReplica put a replica behind it.
    expect(primary.read.target()).toBe('primary');
    expect(await primary.read.caughtUp()).toBe(primary.read);
    expect((await primary.read.query<{ name: string }>('SELECT name FROM whoami')).rows[0].name).toBe('primary');
  });

  it('outside a request, and in a request that has not written, reads go to the replica', async () => {
    expect(await where()).toBe('replica');
    await runInReadScope({ wrote: false, session: 1 }, async () => {
      expect(db.read.target()).toBe('replica');
      expect(await where()).toBe('replica');
    });
  });

  it('after a write that changed rows, the request and its session read the primary; for the window only', async () => {
    const scope: ReadScope = { wrote: false, session: 'a' };
    await runInReadScope(scope, async () => {
      await db.query('UPDATE t SET x = 1'); // no row changed: no pin
      expect(await where()).toBe('replica');
      await db.query(`${HOUSEKEEPING} INSERT INTO t VALUES (0)`); // housekeeping: no pin
      expect(await where()).toBe('replica');
      await db.tx(async (q) => {
        await q.query('INSERT INTO t VALUES (1)');
        // Inside the transaction nothing is reported yet (the commit has not happened).
        expect(db.read.target()).toBe('replica');
      });
      expect(scope.wrote).toBe(true);
      expect(await where()).toBe('primary');
    });
    // Another request of the same session, within the window: primary; another session: replica.
    await runInReadScope({ wrote: false, session: 'a' }, async () => expect(await where()).toBe('primary'));
    await runInReadScope({ wrote: false, session: 'b' }, async () => expect(await where()).toBe('replica'));
    await new Promise((r) => setTimeout(r, 250));
    await runInReadScope({ wrote: false, session: 'a' }, async () => expect(await where()).toBe('replica'));
  });

  it('a scope marked by the client (the cookie) reads the primary', async () => {
    await runInReadScope({ wrote: false, primary: true }, async () => expect(await where()).toBe('primary'));
  });

  it('a replica that cannot be reached is stood in for by the primary; an SQL error is not', async () => {
    const down = { ...replica, query: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })) } as Db;
    // Not closed: closing it would close `primary` too.
    const d = withReplica(primary, down);
    expect((await d.read.query<{ name: string }>('SELECT name FROM whoami')).rows[0].name).toBe('primary');
    await expect(db.read.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
  });
});

describe('DATABASE_REPLICA_URL', () => {
  it('needs DATABASE_URL and a postgres:// URL; the sticky window defaults to 5 s', async () => {
    const { loadConfig } = await import('../config');
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://r@127.0.0.1:5433/db' })).toThrow(/DATABASE_REPLICA_URL: a read replica needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p@127.0.0.1/db', DATABASE_REPLICA_URL: 'http://r/db' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p@127.0.0.1/db', DATABASE_REPLICA_STICKY_MS: '-1' })).toThrow(/DATABASE_REPLICA_STICKY_MS/);
    const c = loadConfig({ DATABASE_URL: 'postgres://p@127.0.0.1/db', DATABASE_REPLICA_URL: 'postgres://r@127.0.0.1:5433/db' });
    expect(c).toMatchObject({ replicaUrl: 'postgres://r@127.0.0.1:5433/db', replicaStickyMs: 5000 });
    expect(loadConfig({ DATABASE_REPLICA_URL: '' }).replicaUrl).toBeUndefined();
  });
});
