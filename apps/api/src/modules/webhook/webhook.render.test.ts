import { describe, expect, it } from 'vitest';
import { toDecimal } from '@portal/contract';
import { toV1Transaction } from '../txn';
import { eventBody, eventObject, type StoredEvent } from './webhook.render';

/**
 * The event renderer (issue 50, decision 075): before 2026-12-03 the body is byte for byte what it
 * always was (the reference below is the renderer as it stood before versions); from 2026-12-03
 * every object is named by its /v1 id and every time is ISO-8601 UTC.
 */
function before(e: StoredEvent): string {
  const data: Record<string, unknown> = { ...e.data };
  const currency = typeof data.currency === 'string' ? data.currency : null;
  if (currency) for (const f of ['amount', 'fee', 'netAmount']) if (typeof data[f] === 'number') data[f] = toDecimal(data[f] as number, currency);
  return JSON.stringify({ id: e.event_id, type: e.type, created: Math.floor(new Date(e.created_at).getTime() / 1000), merId: e.mer_id, data });
}
const at = new Date('2026-11-10T04:00:00.123Z');
const ev = (type: string, data: Record<string, unknown>): StoredEvent => ({ event_id: 'evt_1', type, mer_id: '100000000000002', data, created_at: at });
const txn = { id: 'G1', merId: '100000000000002', orderNo: 'O1', type: 'PURC', amount: 1050, currency: 'JPY', time: '2026-11-10T04:00:00.5+00:00', metadata: {} };
const stored = {
  'transaction.succeeded': ev('transaction.succeeded', { ...txn, _id: 41 }),
  'paylink.paid': ev('paylink.paid', {
    orderNo: 'PBL1',
    amount: 2000,
    currency: 'CNY',
    paidAt: '2026-11-10T05:00:00.123456+00:00',
    closedAt: null,
    expiresAt: '2026-11-17T05:00:00+00:00',
    transactionId: 'G2',
    _id: 7,
    _transactionId: 42,
  }),
  'settlement.transferred': ev('settlement.transferred', {
    merId: '100000000000002',
    settlementDate: '2026-07-01',
    businessLine: 'ONLINE',
    currency: 'CNY',
    amount: 9700,
    fee: 100,
    netAmount: 9600,
    remitDate: '2026-07-02',
  }),
  'refund_approval.decided': ev('refund_approval.decided', {
    approvalId: 3,
    status: 'approved',
    transactionId: 41,
    gatewayId: 'G1',
    requestedAt: '2026-11-10T04:00:00+00:00',
    decidedAt: '2026-11-10T05:12:00.25+00:00',
  }),
  'dispute.created': ev('dispute.created', { id: 'DP-9', disputeId: 9, deadline: '2026-11-20T15:59:59+00:00', transactionId: 41, amount: 500, currency: 'CNY' }),
  'reserve.released': ev('reserve.released', { merId: '100000000000002', amount: 100, currency: 'USD', heldOn: '2026-10-01', releaseDate: '2026-11-01' }),
};

describe('event bodies by version', () => {
  it.each(Object.keys(stored))('%s: before 2026-12-03 the body it always was (no /v1 ids, Unix seconds, PostgreSQL times)', (type) => {
    const e = stored[type as keyof typeof stored];
    const clean = { ...e, data: Object.fromEntries(Object.entries(e.data).filter(([k]) => !k.startsWith('_'))) };
    for (const v of ['2026-06-01', '2026-12-01', undefined]) expect(eventBody(e, v)).toBe(before(clean));
  });

  it('from 2026-12-03: the /v1 ids, ISO-8601 UTC times, created_at; dates stay dates; money as before', () => {
    const o = (type: keyof typeof stored) => eventObject(stored[type], '2026-12-03') as { created_at: string; created?: number; data: Record<string, unknown> };
    const t = o('transaction.succeeded');
    expect(t.created_at).toBe('2026-11-10T04:00:00.123Z');
    expect(t).not.toHaveProperty('created');
    // Decision 079: a transaction event's data is the /v1 Transaction, by its mapper (toV1Transaction).
    expect(t.data).toEqual(
      toV1Transaction(
        {
          id: 41,
          gw_trans_id: 'G1',
          mer_id: txn.merId,
          order_no: 'O1',
          origin_order_no: null,
          origin_txn_id: null,
          tran_type: 'PURC',
          gw_response: null,
          resp_msg: null,
          amount: 1050,
          amount_sign: 1,
          currency: 'JPY',
          return_amount: 0,
          payment_schema: null,
          payment_brand: null,
          mer_reserve: null,
          txn_time: new Date(txn.time),
          settle_flag: 'N',
          settle_date: null,
          settle_currency: null,
          settle_amount: null,
          settle_fee: null,
        } as never,
        {},
      ),
    );
    expect(t.data).toMatchObject({ id: 41, gateway_id: 'G1', amount: '1050', created_at: '2026-11-10T04:00:00.500Z', status: 'processing', metadata: {} });
    // The row the payload stored (migration 240) is what the mapper reads: a refund is the /v1 Refund, its purchase by id.
    const row = {
      id: 43,
      gw_trans_id: 'G3',
      mer_id: txn.merId,
      order_no: 'R1',
      origin_order_no: 'O1',
      origin_txn_id: 41,
      tran_type: 'REFD',
      gw_response: '00',
      resp_msg: 'ok',
      amount: 500,
      amount_sign: 1,
      currency: 'CNY',
      return_amount: 0,
      payment_schema: 'CARD',
      payment_brand: 'visa',
      mer_reserve: 'r',
      txn_time: '2026-11-10T04:00:00.5+00:00',
      settle_flag: 'N',
      settle_date: null,
      settle_currency: null,
      settle_amount: null,
      settle_fee: null,
    };
    const r = eventObject(ev('refund.succeeded', { ...txn, id: 'G3', _id: 43, _row: row, metadata: { a: 'b' } }), '2026-12-03') as { data: Record<string, unknown> };
    expect(r.data).toEqual({ ...toV1Transaction(row as never, { a: 'b' }), purchase: 41 });
    expect(r.data).toMatchObject({ id: 43, gateway_id: 'G3', origin_transaction_id: 41, amount: '5.00', status: 'succeeded', merchant_reference: 'r', purchase: 41 });
    expect(o('paylink.paid').data).toEqual({
      orderNo: 'PBL1',
      amount: '20.00',
      currency: 'CNY',
      paidAt: '2026-11-10T05:00:00.123Z',
      closedAt: null,
      expiresAt: '2026-11-17T05:00:00.000Z',
      id: 7,
      transactionId: 42,
      gatewayId: 'G2',
    });
    expect(o('settlement.transferred').data).toMatchObject({
      id: '2026-07-01.100000000000002.ONLINE.CNY',
      settlementDate: '2026-07-01',
      remitDate: '2026-07-02',
      amount: '97.00',
      fee: '1.00',
      netAmount: '96.00',
    });
    expect(o('refund_approval.decided').data).toMatchObject({ id: 3, approvalId: 3, transactionId: 41, requestedAt: '2026-11-10T04:00:00.000Z', decidedAt: '2026-11-10T05:12:00.250Z' });
    expect(o('dispute.created').data).toMatchObject({ id: 9, disputeId: 9, gatewayDisputeId: 'DP-9', deadline: '2026-11-20T15:59:59.000Z', amount: '5.00' });
    expect(o('reserve.released').data).toEqual({ merId: '100000000000002', amount: '1.00', currency: 'USD', heldOn: '2026-10-01', releaseDate: '2026-11-01' });
    // An order event recorded before its /v1 id was kept: id null rather than the gateway's.
    expect(eventObject(ev('paylink.paid', { orderNo: 'PBL1', transactionId: 'G2' }), '2026-12-03').data).toMatchObject({ id: null, transactionId: null, gatewayId: 'G2' });
  });
});
