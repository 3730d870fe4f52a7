import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../plugins/mail';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { PDF, VALID_ORDER, pbl } from './paybylink.fixtures';

describe.each(DB_KINDS)('POST /payByLink/add on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
  });
  afterAll(() => ctx.close());

  it('creates an order: orderNo, an unguessable pay link, default 7-day expiry, a created event', async () => {
    const res = await pbl(ctx, demo).add(VALID_ORDER);
    expect(res.body.code).toBe(0);
    const d = res.body.data;
    expect(d.orderNo).toMatch(/^PBL\d{8}\d{6}$/);
    expect(d.payByLink).toMatch(/^http:\/\/localhost(:\d+)?\/pay\/[A-Za-z0-9_-]{43}$/);
    expect(d.emailStatus).toBe('none');
    const { rows } = await ctx.db.query<{ total_amount: number; status: string; open_status: string; mer_id: string; expires_at: Date; created_at: Date }>(
      'SELECT total_amount, status, open_status, mer_id, expires_at, created_at FROM pay_by_link_order WHERE id = $1',
      [d.id],
    );
    expect(rows[0]).toMatchObject({ total_amount: 12050, status: '04', open_status: '02', mer_id: DEMO.group });
    expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(7 * 86_400_000);
    const detail = await pbl(ctx, demo).get(`/api/payByLink/${d.id}`);
    expect(detail.body.data).toMatchObject({
      orderno: d.orderNo,
      status: '04',
      openStatus: '02',
      totalAmount: '120.50',
      goodsQuantity: 1,
      logFee: '0.00',
      link: d.payByLink,
      prodCategory: 'paybylink',
    });
    expect(detail.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created']);
    // JPY has no decimals; validity chosen
    const jpy = await pbl(ctx, demo).add({ ...VALID_ORDER, orderCurrency: 'JPY', totalAmount: '5000', goodsPrice: '5000', validDays: '1' });
    expect(jpy.body.code).toBe(0);
  });

  it.each([
    ['reconId', { reconId: '' }, 'Required'],
    ['goodsName', { goodsName: '  ' }, 'Please enter the goods name'],
    ['totalAmount', { totalAmount: '' }, 'Required'],
    ['totalAmount', { totalAmount: '0' }, 'The value should be greater than 0'],
    ['totalAmount', { totalAmount: '-3' }, 'The value should be greater than 0'],
    ['totalAmount', { totalAmount: '1.005' }, 'USD allows at most 2 decimal places'],
    ['goodsPrice', { goodsPrice: '' }, 'Required'],
    ['goodsQuantity', { goodsQuantity: '' }, 'Required'],
    ['goodsQuantity', { goodsQuantity: '0' }, 'Please enter a value not less than 1'],
    ['goodsQuantity', { goodsQuantity: '1.5' }, 'Please enter a positive integer'],
    ['buyerEmail', { buyerEmail: 'not-an-email' }, 'Please enter a valid e-mail address'],
    ['buyerEmail', { sendEmailChecked: 'true', attachment: 'x' }, 'Please enter the buyer e-mail before choosing to send an e-mail'],
    ['attachment', { sendEmailChecked: 'true', buyerEmail: 'buyer@example.com' }, 'Please upload the attachment'],
    ['attachment', { sendEmailChecked: 'true', buyerEmail: 'buyer@example.com', attachment: 'no-such-file' }, 'The attachment does not exist, please upload it again'],
    ['orderCurrency', { orderCurrency: 'KRW' }, 'This currency is not enabled for the merchant'],
    ['orderCurrency', { orderCurrency: '' }, 'Required'],
    ['logFee', { logFee: '-1' }, 'Please enter a value not less than 0'],
  ])('refuses %s: %j → %s', async (field, over, msg) => {
    const res = await pbl(ctx, demo).add({ ...VALID_ORDER, ...over });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, msg });
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers the spec messages in zh, ko and ja too', async () => {
    const zero = { ...VALID_ORDER, totalAmount: '0' };
    expect((await pbl(ctx, demo, 'zh').add(zero)).body.msg).toBe('数值必须大于 0');
    expect((await pbl(ctx, demo, 'ko').add({ ...VALID_ORDER, reconId: '' })).body.msg).toBe('필수 항목입니다');
    expect((await pbl(ctx, demo, 'ja').add({ ...VALID_ORDER, goodsQuantity: '0' })).body.msg).toBe('1 以上の値を入力してください');
  });

  it('takes a missing goodsQuantity as 1 (spec §3 default); the total must then be price + shipping', async () => {
    const { goodsQuantity: _omitted, ...noQty } = VALID_ORDER;
    const res = await pbl(ctx, demo).add(noQty);
    expect(res.body.code, res.body.msg).toBe(0);
    expect((await pbl(ctx, demo).get(`/api/payByLink/${res.body.data.id}`)).body.data.goodsQuantity).toBe(1);
    const mismatch = await pbl(ctx, demo).add({ ...noQty, goodsPrice: '60.25' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.data.errors.map((e: { field: string }) => e.field)).toContain('totalAmount');
  });

  it('lists every problem by field at once', async () => {
    const res = await pbl(ctx, demo).add({ ...VALID_ORDER, reconId: '', goodsName: '', totalAmount: '0', goodsQuantity: 'x' });
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['reconId', 'goodsName', 'totalAmount', 'goodsQuantity']);
  });

  it('refuses a user without the create permission, and a caller without a token', async () => {
    const res = await pbl(ctx, sub).add(VALID_ORDER);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(403);
    const anon = await ctx.call({ method: 'POST', url: '/api/payByLink/add', payload: VALID_ORDER });
    expect(anon.status).toBe(401);
    expect(await ctx.db.query('SELECT 1 FROM pay_by_link_order WHERE mer_id = $1', [DEMO.subA]).then((r) => r.rows.length)).toBe(0);
  });

  it("refuses another merchant's attachment as if it did not exist", async () => {
    const other = (await ctx.login(DEMO.users.other)).token;
    const up = await pbl(ctx, other).upload('bill.pdf', PDF);
    expect(up.body.code).toBe(0);
    const res = await pbl(ctx, demo).add({ ...VALID_ORDER, buyerEmail: 'b@example.com', sendEmailChecked: 'true', attachment: up.body.data.attachment });
    expect(res.body.msg).toBe('The attachment does not exist, please upload it again');
  });

  it('e-mails the buyer the link, the amount and the attachment (outbox)', async () => {
    const up = await pbl(ctx, demo).upload('invoice-001.pdf', PDF);
    const res = await pbl(ctx, demo).add({ ...VALID_ORDER, buyerEmail: 'buyer@example.com', sendEmailChecked: 'true', attachment: up.body.data.attachment });
    expect(res.body.data.emailStatus).toBe('sent');
    const mail = (await readOutbox(ctx.outbox)).find((m) => m.to === 'buyer@example.com')!;
    expect(mail.subject).toBe('Payment request from Demo Group Ltd: USD 120.50');
    expect(mail.text).toContain(res.body.data.payByLink);
    expect(mail.text).toContain('USD 120.50');
    expect(mail.attachments).toEqual([{ filename: 'invoice-001.pdf', size: PDF.length, contentType: 'application/pdf' }]);
    const detail = await pbl(ctx, demo).get(`/api/payByLink/${res.body.data.id}`);
    expect(detail.body.data).toMatchObject({ sendEmailChecked: true, emailStatus: 'sent', fileName: 'invoice-001.pdf', attachment: up.body.data.attachment });
    expect(detail.body.data.activity.map((a: { kind: string }) => a.kind)).toEqual(['created', 'emailed']);
  });

  it('reports a failed e-mail to the merchant instead of hiding it', async () => {
    const send = ctx.mailer.send;
    (ctx.mailer as { send: typeof send }).send = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:2525');
    };
    try {
      const up = await pbl(ctx, demo).upload('bill.pdf', PDF);
      const res = await pbl(ctx, demo).add({ ...VALID_ORDER, buyerEmail: 'buyer2@example.com', sendEmailChecked: 'true', attachment: up.body.data.attachment });
      expect(res.body.code).toBe(0);
      expect(res.body.data.emailStatus).toBe('failed');
      const detail = await pbl(ctx, demo).get(`/api/payByLink/${res.body.data.id}`);
      expect(detail.body.data.emailStatus).toBe('failed');
      const ev = detail.body.data.activity.find((a: { kind: string }) => a.kind === 'emailFailed');
      expect(ev.detail.error).toContain('ECONNREFUSED');
    } finally {
      (ctx.mailer as { send: typeof send }).send = send;
    }
  });
});
