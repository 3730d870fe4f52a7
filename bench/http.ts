import { Worker } from 'node:worker_threads';

export interface Timed {
  /** ms, measured in the client's thread */
  t: number;
  code: number;
  msg: string;
  /** totalElements, or the number of days, of the answer */
  n: number;
}

/**
 * HTTP clients in a worker thread: for a server embedded in this process (PGlite), so that the
 * clients' own work (requests, parsing answers) does not run on the server's thread. The time is
 * taken around the HTTP call in the worker.
 */
export class RemoteClient {
  private readonly worker = new Worker(new URL('./http-worker.mjs', import.meta.url));
  private readonly waiting = new Map<number, (r: Timed) => void>();
  private next = 0;

  constructor() {
    this.worker.on('message', (m: Timed & { id: number }) => {
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    });
  }

  get(url: string, token: string): Promise<Timed> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, url, token });
    });
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
