import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import { createMailer, readOutbox } from './mail';

describe('mail', () => {
  const received: Buffer[] = [];
  let server: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('delivers through a real SMTP server when SMTP_URL is set, attachments included', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: '/nonexistent', from: 'Portal <no-reply@portal.local>' });
    expect(mailer.target).toBe(`SMTP 127.0.0.1:${port}`);
    await mailer.send({
      to: 'buyer@example.com',
      subject: '您的验证码',
      text: 'Code 123456',
      attachments: [{ filename: 'invoice.csv', content: Buffer.from('a,b\n1,2\n') }],
    });
    expect(received).toHaveLength(1);
    const parsed = await PostalMime.parse(received[0]);
    expect(parsed.subject).toBe('您的验证码');
    expect(parsed.to?.[0]).toMatchObject({ address: 'buyer@example.com' });
    expect(parsed.attachments[0].filename).toBe('invoice.csv');
    expect(Buffer.from(parsed.attachments[0].content as ArrayBuffer).toString()).toBe('a,b\n1,2\n');
  });

  it('writes .eml files to the outbox otherwise, listed newest first', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const mailer = createMailer({ outboxDir: dir, from: 'Portal <no-reply@portal.local>' });
    await mailer.send({ to: 'a@example.com', subject: 'first', text: 'one' });
    await new Promise((r) => setTimeout(r, 5));
    await mailer.send({ to: 'b@example.com', subject: 'second', text: 'two' });
    const items = await readOutbox(dir);
    expect(items.map((i) => i.subject)).toEqual(['second', 'first']);
    expect(items[0].to).toBe('b@example.com');
    expect(fs.readdirSync(dir)).toHaveLength(2);
    expect(fs.readdirSync(dir).every((f) => f.endsWith('.eml'))).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });
});
