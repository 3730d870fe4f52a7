import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import { createMailer } from '../../plugins/mail';
import { createTestApp, DEMO, type TestCtx } from '../../../test/helpers';
import { smtpError, startSmtpReceiver } from '../../../test/smtp-receiver';
import { VALID_ORDER, pbl } from './paybylink.fixtures';

/** The buyer e-mail through a real SMTP conversation (smtp-server as the receiving MTA). */
describe('buyer e-mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let ctx: TestCtx;
  let demo: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver({ refuse: (address) => (address.endsWith('@reject.example') ? smtpError(550, 'mailbox unavailable') : undefined), size: 20 * 1024 * 1024 });
    const port = smtp.port;
    ctx = await createTestApp();
    demo = (await ctx.login(DEMO.users.demo)).token; // sign-in code through the outbox, then mail goes over SMTP
    ctx.deps.mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: ctx.outbox, from: ctx.config.mailFrom });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('delivers the link, the amount and the attached bill byte for byte', async () => {
    const bill = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256)), Buffer.from('\n%%EOF\n')]);
    const up = await pbl(ctx, demo).upload('Rechnung 42.pdf', bill);
    expect(up.body.code).toBe(0);
    const res = await pbl(ctx, demo, 'ja').add({
      ...VALID_ORDER,
      orderCurrency: 'JPY',
      totalAmount: '12800',
      goodsPrice: '12800',
      buyerEmail: 'buyer@shop.example',
      sendEmailChecked: 'true',
      attachment: up.body.data.attachment,
    });
    expect(res.body.data.emailStatus).toBe('sent');
    const mail = smtp.received.find((m) => m.to.includes('buyer@shop.example'))!;
    expect(mail).toBeTruthy();
    const parsed = await PostalMime.parse(mail.raw);
    expect(parsed.subject).toBe('Demo Group Ltd からの支払いリクエスト：JPY 12,800');
    expect(parsed.text).toContain(res.body.data.payByLink);
    expect(parsed.text).toContain('JPY 12,800');
    expect(parsed.html).toContain(`href="${res.body.data.payByLink}"`);
    expect(parsed.attachments).toHaveLength(1);
    const a = parsed.attachments[0];
    expect(a.filename).toBe('Rechnung 42.pdf');
    expect(a.mimeType).toBe('application/pdf');
    expect(Buffer.compare(Buffer.from(a.content as ArrayBuffer), bill)).toBe(0);
  });

  it('tells the merchant when the mail server refuses the buyer address', async () => {
    const up = await pbl(ctx, demo).upload('bill.csv', Buffer.from('a,b\n1,2\n'));
    const res = await pbl(ctx, demo).add({ ...VALID_ORDER, buyerEmail: 'nobody@reject.example', sendEmailChecked: 'true', attachment: up.body.data.attachment });
    expect(res.body.code).toBe(0);
    expect(res.body.data.emailStatus).toBe('failed');
    const d = await pbl(ctx, demo).get(`/api/payByLink/${res.body.data.id}`);
    expect(d.body.data.emailStatus).toBe('failed');
    expect(d.body.data.activity.at(-1)).toMatchObject({ kind: 'emailFailed', detail: { to: 'nobody@reject.example' } });
    expect(String(d.body.data.activity.at(-1).detail.error)).toMatch(/550|mailbox unavailable|Recipient/i);
  });
});
