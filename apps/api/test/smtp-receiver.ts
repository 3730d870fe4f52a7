import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: Buffer;
}

/**
 * A real receiving MTA for mail tests (smtp-server on a loopback port): every accepted message is
 * kept in `received`. `refuse` may answer a recipient with an SMTP error (its `responseCode`, e.g.
 * 451 for "try again later", 550 for "mailbox unavailable"); undefined accepts it.
 */
export async function startSmtpReceiver(opts: { refuse?: (address: string) => (Error & { responseCode: number }) | undefined; size?: number } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 500,
    ...(opts.size ? { size: opts.size } : {}),
    onRcptTo(address, _session, cb) {
      const refusal = opts.refuse?.(address.address);
      if (refusal) return cb(refusal);
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** An SMTP refusal with its reply code. */
export const smtpError = (responseCode: number, text: string) => Object.assign(new Error(`${responseCode} ${text}`), { responseCode });
