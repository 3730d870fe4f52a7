import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../loopback';
import { readOutbox } from '../../src/plugins/mail';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

export { freePort, scratchDatabase } from '../loopback';

export interface Served {
  base: string;
  proc: ChildProcess;
  dataDir: string;
  log(): string;
  /** Resolves to the exit code once the process ended. */
  exited: Promise<number | null>;
}

/**
 * Starts the real server (`tsx apps/api/src/server.ts`) on a free port with `dataDir` and waits
 * until /readyz answers 200.
 */
export async function serve(dataDir: string, env: Record<string, string | undefined>, timeoutMs = 90_000): Promise<Served> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, `server-${Date.now()}.log`);
  fs.mkdirSync(dataDir, { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const full: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DAYS: '1', LOG_LEVEL: 'info', ...env };
  if (!env.DATABASE_URL) delete full.DATABASE_URL;
  // node with tsx's loader (not the tsx CLI, which runs the server in a child of its own): the
  // signal the test sends reaches the server process itself.
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], { cwd: ROOT, env: full, stdio: ['ignore', out, out] });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const log = () => fs.readFileSync(logFile, 'utf8');
  const started = Date.now();
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() - started < timeoutMs) {
    if (gone) throw new Error(`server exited before ready; log:\n${log().slice(-3000)}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.status === 200) return { base, proc, dataDir, log, exited };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`server not ready in ${timeoutMs} ms; log:\n${log().slice(-3000)}`);
}

/** A client of a served API: signs in through the real flow (code from DATA_DIR/outbox). */
export function apiClient(s: { base: string; dataDir: string }) {
  let token = '';
  const call = async (method: string, url: string, body?: Record<string, string>) => {
    const r = await fetch(`${s.base}${url}`, {
      method,
      headers: { ...(token ? { 'x-token': token } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: body ? new URLSearchParams(body).toString() : undefined,
    });
    const text = await r.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text };
    }
    return { status: r.status, body: json };
  };
  return {
    call,
    async login(username: string, password: string) {
      const before = new Set((await readOutbox(path.join(s.dataDir, 'outbox'))).map((m) => m.file));
      const sent = await call('POST', '/api/user/getEmailCode', { username });
      if (sent.body.code !== 0) throw new Error(`getEmailCode: ${JSON.stringify(sent.body)}`);
      const mail = (await readOutbox(path.join(s.dataDir, 'outbox'))).find((m) => !before.has(m.file));
      const verifyCode = /\b(\d{6})\b/.exec(mail!.text)![1];
      const r = await call('POST', '/api/user/login', { username, password, verifyCode });
      if (r.body.code !== 0) throw new Error(`login: ${JSON.stringify(r.body)}`);
      token = r.body.data.token;
      const step = await call('POST', '/api/user/checkPassword', { password });
      if (step.body.code !== 0) throw new Error(`checkPassword: ${JSON.stringify(step.body)}`);
    },
  };
}

export const tmpDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
