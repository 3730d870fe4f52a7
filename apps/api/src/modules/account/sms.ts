import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../plugins/context';

/** Sends text messages: a development outbox (shown on /dev/mailbox) or an HTTP provider (SMS_URL). */
export interface SmsSender {
  readonly target: string;
  send(to: string, text: string): Promise<void>;
}

export interface SmsItem {
  file: string;
  to: string;
  text: string;
  date: string;
}

/** Without SMS_URL each message is a JSON file under `outboxDir`, newest first on /dev/mailbox. */
function createSmsSender(opts: { smsUrl?: string; outboxDir: string }): SmsSender {
  if (opts.smsUrl) {
    const url = opts.smsUrl;
    return {
      target: `HTTP ${new URL(url).host}`,
      async send(to, text) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to, text }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}`);
      },
    };
  }
  return {
    target: `${opts.outboxDir} (open /dev/mailbox)`,
    async send(to, text) {
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.json`;
      const tmp = path.join(opts.outboxDir, `.${name}.tmp`);
      fs.writeFileSync(tmp, JSON.stringify({ to, text, date: new Date().toISOString() }));
      fs.renameSync(tmp, path.join(opts.outboxDir, name));
    },
  };
}

export const smsOutboxDir = (deps: Deps) => path.join(deps.config.dataDir, 'sms-outbox');

export function readSmsOutbox(dir: string, limit = 50): SmsItem[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse()
    .slice(0, limit)
    .map((file) => ({ file, ...(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Omit<SmsItem, 'file'>) }));
}

const senders = new WeakMap<Deps, SmsSender>();
/** The sender of these deps (made once from SMS_URL / DATA_DIR). */
export function smsSenderOf(deps: Deps): SmsSender {
  let s = senders.get(deps);
  if (!s) {
    s = createSmsSender({ smsUrl: deps.config.smsUrl, outboxDir: smsOutboxDir(deps) });
    senders.set(deps, s);
  }
  return s;
}
