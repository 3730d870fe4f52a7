import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb } from '../../../test/helpers';
import { seedFoundation, DEMO } from '../../seed/foundation.seed';
import { TestClock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { createSandboxAcquirer, sandboxOutcome } from './sandbox.acquirer';

describe('sandbox test amounts', () => {
  it.each([
    [10000, '00'],
    [10051, '01'],
    [10004, '04'],
    [10014, '04'],
    [10050, '00'],
    [151, '01'],
    [1051, '01'],
    [104, '04'],
    [5, '00'],
    [51, '01'],
  ])('%i minor units → %s', (amount, code) => expect(sandboxOutcome(amount).gwResponse).toBe(code));
});

describe.each(DB_KINDS)('sandbox acquirer on %s', (kind) => {
  let db: Awaited<ReturnType<typeof freshDb>>;
  const clock = new TestClock(new Date('2026-03-02T04:00:00Z')); // 12:00 in Shanghai
  const acq = createSandboxAcquirer({ config: { platformTz: 'Asia/Shanghai' }, clock });
  let n = 0;
  const pay = (amount: number, currency = 'HKD') =>
    db.tx((q) => acq.pay(q, { merId: DEMO.group, orderNo: `S-${++n}`, amount, currency, channel: 'CARD', brand: 'visa', cardNumber: '4000000000000002' }));
  const row = async (id: number) =>
    (await db.query<{ gw_response: string; resp_msg: string; return_amount: number; source: string; card_first6: string }>('SELECT * FROM txn WHERE id = $1', [id])).rows[0];

  beforeAll(async () => {
    db = await freshDb(kind);
    await seedFoundation(db, { env: 'test' });
  });
  afterAll(() => db.drop());

  it('decides by the amount and records through ingestion', async () => {
    expect(await pay(10000)).toMatchObject({ gwResponse: '00', respMsg: 'Approved' });
    expect(await pay(10051)).toMatchObject({ gwResponse: '01', respMsg: 'Declined: insufficient funds' });
    expect(await pay(1051, 'JPY')).toMatchObject({ gwResponse: '01' });
    const ok = await pay(2000);
    expect(await row(ok.id)).toMatchObject({ gw_response: '00', source: 'sandbox', card_first6: '400000' });
  });

  it('resolves pending payments: …04 → 00, …14 → 01, once', async () => {
    const a = await pay(10004);
    const b = await pay(10014);
    expect([a.gwResponse, b.gwResponse]).toEqual(['04', '04']);
    expect(await db.tx((q) => acq.resolvePending(q, a.id))).toMatchObject({ gwResponse: '00', changed: true });
    expect(await db.tx((q) => acq.resolvePending(q, b.id))).toMatchObject({ gwResponse: '01', respMsg: 'Declined by issuer', changed: true });
    expect(await db.tx((q) => acq.resolvePending(q, a.id))).toMatchObject({ gwResponse: '00', changed: false });
  });

  it('sweeps due pending payments', async () => {
    const c = await pay(30004);
    clock.advance(120_000);
    expect(await db.tx((q) => acq.resolveDue(q, new Date(clock.now().getTime() - 60_000)))).toBeGreaterThanOrEqual(1);
    expect((await row(c.id)).gw_response).toBe('00');
  });

  it('refunds through ingestion with the amount rule; a failed pending refund gives back its reservation', async () => {
    const p = await pay(50000);
    const r1 = await db.tx((q) => acq.refund(q, { purchaseId: p.id, amount: 1000, orderNo: 'S-R1' }));
    expect(r1.gwResponse).toBe('00');
    const r2 = await db.tx((q) => acq.refund(q, { purchaseId: p.id, amount: 1051, orderNo: 'S-R2' }));
    expect(r2.gwResponse).toBe('01');
    // The refund service reserves the amount first (return_amount), then asks the acquirer.
    await db.query('UPDATE txn SET return_amount = return_amount + 1014 WHERE id = $1', [p.id]);
    const r3 = await db.tx((q) => acq.refund(q, { purchaseId: p.id, amount: 1014, orderNo: 'S-R3' }));
    expect(r3.gwResponse).toBe('04');
    await db.tx((q) => acq.resolvePending(q, r3.id));
    expect((await row(p.id)).return_amount).toBe(0);
    const bad = await db.tx((q) => acq.refund(q, { purchaseId: r1.id, amount: 10, orderNo: 'S-R4' })).catch((e) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect(bad).toMatchObject({ key: 'payOriginMismatch', params: { reason: 'type REFD' }, httpStatus: 400 });
  });

  it('voids a same-day purchase once, and refuses a purchase of another day', async () => {
    const p = await pay(7000);
    const v = await db.tx((q) => acq.voidTxn(q, { purchaseId: p.id, orderNo: 'S-V1' }));
    expect(v.gwResponse).toBe('00');
    const again = await db.tx((q) => acq.voidTxn(q, { purchaseId: p.id, orderNo: 'S-V2' })).catch((e) => e);
    expect(again).toBeInstanceOf(AppError);
    expect(again).toMatchObject({ key: 'payVoidNotAllowed', params: { reason: 'already voided' }, httpStatus: 400 });
    const old = await pay(8000);
    clock.advance(86_400_000);
    const late = await db.tx((q) => acq.voidTxn(q, { purchaseId: old.id, orderNo: 'S-V3' })).catch((e) => e);
    expect(late).toMatchObject({ key: 'payVoidNotAllowed' });
  });
});
