import pg from 'pg';

/**
 * The listening half of `Db.listen`: one pg.Client that LISTENs, passes on notifications for its
 * own schema, and after any error reconnects (1 s apart) until stopped.
 */
export function listenOn(cfg: pg.ClientConfig, channel: string, onNotify: (payload: string) => void, onState: (listening: boolean) => void): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client(cfg);
    client = c;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      onState(false);
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    };
    c.on('error', onLost);
    c.on('end', onLost);
    try {
      await c.connect();
      const schema = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      c.on('notification', (n) => {
        if (n.channel === channel && (n.payload ?? '') === schema) onNotify(n.payload ?? '');
      });
      await c.query(`LISTEN ${channel}`);
      if (stopped) return void c.end().catch(() => undefined);
      onState(true);
    } catch {
      onLost();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
  };
}
