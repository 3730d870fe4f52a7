import fs from 'node:fs';
import path from 'node:path';
import { metrics } from './metrics';
import nodemailer from 'nodemailer';
import PostalMime from 'postal-mime';
import { safeFileName } from '../lib/filename';

export interface MailAttachment {
  filename: string;
  content?: Buffer;
  path?: string;
  contentType?: string;
}
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}
export interface Mailer {
  /** Where mail goes, for the start-up banner. */
  readonly target: string;
  send(msg: MailMessage): Promise<{ messageId: string }>;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each message is written as an .eml file under
 * `outboxDir` (newest first on /dev/mailbox).
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  const mailer = createTransportMailer(opts);
  return {
    target: mailer.target,
    // An attachment's name is a downloaded file's name too: no bidirectional controls (issue 28).
    send: (msg) => mailer.send(msg.attachments ? { ...msg, attachments: msg.attachments.map((a) => ({ ...a, filename: safeFileName(a.filename) || 'attachment' })) } : msg),
  };
}

function createTransportMailer(opts: { smtpUrl?: string; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    const u = new URL(opts.smtpUrl);
    return {
      target: `SMTP ${u.hostname}:${u.port || 25}`,
      async send(msg) {
        const info = await transport.sendMail({ from: opts.from, ...msg }).catch((err) => {
          metrics.mails.inc({ result: 'failed' });
          throw err;
        });
        metrics.mails.inc({ result: 'sent' });
        return { messageId: info.messageId };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: `${opts.outboxDir} (open /dev/mailbox)`,
    async send(msg) {
      const info = await transport.sendMail({ from: opts.from, ...msg });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const name = `${Date.now()}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 24)}.eml`;
      const tmp = path.join(opts.outboxDir, `.${name}.tmp`);
      fs.writeFileSync(tmp, info.message as Buffer);
      fs.renameSync(tmp, path.join(opts.outboxDir, name));
      metrics.mails.inc({ result: 'sent' });
      return { messageId: info.messageId };
    },
  };
}

export interface OutboxItem {
  file: string;
  to: string;
  subject: string;
  date: string;
  text: string;
  attachments: { filename: string; size: number; contentType: string }[];
}

/** The outbox, newest first. */
export async function readOutbox(outboxDir: string, limit = 50): Promise<OutboxItem[]> {
  if (!fs.existsSync(outboxDir)) return [];
  const files = fs
    .readdirSync(outboxDir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(
    files.map(async (file) => {
      const parsed = await PostalMime.parse(fs.readFileSync(path.join(outboxDir, file)));
      const to = (parsed.to ?? []).map((a) => ('address' in a ? a.address : a.name) ?? '').join(', ');
      return {
        file,
        to,
        subject: parsed.subject ?? '',
        date: parsed.date ? new Date(parsed.date).toISOString() : new Date(0).toISOString(),
        text: parsed.text ?? '',
        attachments: parsed.attachments.map((a) => ({
          filename: a.filename ?? '',
          size: typeof a.content === 'string' ? a.content.length : a.content.byteLength,
          contentType: a.mimeType,
        })),
      };
    }),
  );
}
