import { Worker } from 'node:worker_threads';
import { check } from './check';

export interface Timed {
  /** ms, measured in the client's thread */
  t: number;
  /** HTTP status (0: no answer) */
  status: number;
  /** length of the answer's body */
  bytes: number;
  code: number;
  msg: string;
  /** totalElements, or the number of days, of the answer */
  n: number;
  /** The answer passed the check above (set by RemoteClient). */
  ok?: boolean;
}

/**
 * HTTP clients in a worker thread: for a server embedded in this process (PGlite), so that the
 * clients' own work (requests, parsing answers) does not run on the server's thread. The time is
 * taken around the HTTP call in the worker. Every answer is checked and counted (check.ts): HTTP 200,
 * a non-empty JSON body, envelope code 0; `ok` tells the caller.
 */
export class RemoteClient {
  private readonly worker = new Worker(new URL('./http-worker.mjs', import.meta.url));
  private readonly waiting = new Map<number, (r: Timed) => void>();
  private readonly urls = new Map<number, string>();
  private next = 0;

  constructor() {
    this.worker.on('message', (m: Timed & { id: number; url?: string }) => {
      m.ok = check(m.status === 200 && m.bytes > 0 && m.code === 0, () => `GET ${this.urls.get(m.id)}: HTTP ${m.status}, code ${m.code} ${m.msg ?? ''}`.slice(0, 300));
      this.urls.delete(m.id);
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
  }

  get(url: string, token: string): Promise<Timed> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.urls.set(id, url.replace(/^https?:\/\/[^/]+/, ''));
      this.worker.postMessage({ id, url, token });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
