/** Test data for the transactions module: rows go in through ingestion, as in production. */
import type { Queryable } from '../../db/db';
import type { TestCtx } from '../../../test/helpers';
import { DEMO, form } from '../../../test/helpers';
import { ingestTransaction } from '../payments';
import type { IngestInput } from '../payments';

let seq = 0;

export async function addTxn(ctx: TestCtx, over: Partial<IngestInput> = {}): Promise<{ id: number; gwTransId: string }> {
  seq++;
  const input: IngestInput = {
    merId: DEMO.subA,
    orderNo: `T${Date.now().toString(36)}${seq}`,
    tranType: 'PURC',
    amount: 10000,
    currency: 'CNY',
    paymentSchema: 'WX',
    paymentBrand: 'wechat_pay',
    gwResponse: '00',
    respMsg: 'Approved',
    txnTime: new Date('2026-11-10T04:00:00Z'),
    cardNumber: '6222021234567890',
    source: 'manual',
    ...over,
  };
  return ingestTransaction(ctx.db, input, { platformTz: ctx.config.platformTz });
}

/** Marks a transaction settled as the settlement run would (flag, date, converted amount, fee). */
export async function settle(q: Queryable, id: number, v: { date: string; currency: string; amount: number; fee: number; flag?: 'Y' | 'S' | 'T' }) {
  await q.query(`UPDATE txn SET settle_flag = $2, settle_date = $3, settle_currency = $4, settle_amount = $5, settle_fee = $6, fx_rate = 1 WHERE id = $1`, [
    id,
    v.flag ?? 'S',
    v.date,
    v.currency,
    v.amount,
    v.fee,
  ]);
}

/** Signs in and passes the password step-up (grants refunds for 5 minutes). */
export async function loginWithStepUp(ctx: TestCtx, username: string = DEMO.users.demo): Promise<string> {
  const { token } = await ctx.login(username);
  const r = await ctx.call({ method: 'POST', url: '/api/user/checkPassword', headers: { 'x-token': token, ...form({}).headers }, payload: form({ password: DEMO.password }).payload });
  if (r.body.code !== 0) throw new Error(`checkPassword: ${r.body.msg}`);
  return token;
}

/** Removes one permission from a seeded user (takes effect on its next request). */
export async function revoke(q: Queryable, username: string, perm: string) {
  await q.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [username, perm]);
}

export const auth = (token: string) => ({ 'x-token': token });
