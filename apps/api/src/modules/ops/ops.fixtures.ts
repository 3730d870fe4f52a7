import type { OpsRole } from '@portal/contract';
import type { TestCtx } from '../../../test/helpers';
import { createOperator } from './operators.service';
import { totpFor } from '../user';

export const OPS_PASSWORD = 'Ops-Passw0rd!long';

/** The authenticator's code of `secret` at the test clock's time, a fresh 30-second step each call. */
export function totpNow(ctx: TestCtx, secret: string): string {
  ctx.clock.advance(31_000);
  return totpFor(secret, 'x').generate({ timestamp: ctx.clock.now().getTime() });
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** An active operator made as the CLI makes it and activated through the API; its authenticator secret. */
export async function addOperator(ctx: TestCtx, username: string, role: OpsRole): Promise<{ id: number; secret: string }> {
  const { id, link } = await createOperator(ctx.deps, { username, email: `${username}@provider.example`, role }, { cli: true }, {});
  const token = tokenOf(link);
  const info = await ctx.call({ method: 'GET', url: '/api/ops/auth/activation', query: { token } });
  if (info.body.code !== 0) throw new Error(`activation info: ${info.body.msg}`);
  const secret = info.body.data.totpSecret as string;
  const res = await ctx.call({ method: 'POST', url: '/api/ops/auth/activate', payload: { token, newPassword: OPS_PASSWORD, confirmPassword: OPS_PASSWORD, totpCode: totpNow(ctx, secret) } });
  if (res.body.code !== 0) throw new Error(`activate: ${res.body.msg}`);
  return { id, secret };
}

/** Signs an operator in (password + authenticator) and returns its access token. */
export async function opsLogin(ctx: TestCtx, username: string, secret: string): Promise<string> {
  const res = await ctx.call({ method: 'POST', url: '/api/ops/auth/login', payload: { username, password: OPS_PASSWORD, verifyCode: totpNow(ctx, secret) } });
  if (res.body.code !== 0) throw new Error(`ops login: ${res.body.msg}`);
  return res.body.data.token;
}

/** A merchant of the back office's tests: a group with two fee lines, a bank account and a main user. */
export const FEE = { busLine: 'CARD', mdrBp: 300, fixedFee: 200, cycleDays: 2, reserveBp: 500, reserveHoldDays: 90, tranThreshold: 10000, tranFee: 500, transferPeriod: 'W1' };
export const BANK = { beneficiaryBank: 'Example Bank Ltd', swiftCode: 'EXAMHKHH', accountName: 'New Group Ltd', accountNumber: '123456789012', country: 'HK', currency: 'HKD' };
export const merchantBody = (over: Record<string, unknown> = {}) => ({
  attribute: 'GROUP',
  name: 'New Group',
  corporationName: 'New Group Holdings Ltd',
  country: 'HK',
  mcc: '5999',
  defaultCurrency: 'HKD',
  settleCurrency: 'HKD',
  channels: ['CARD', 'AP'],
  currencies: ['HKD', 'USD'],
  fees: [FEE, { ...FEE, busLine: 'AP', mdrBp: 180, fixedFee: 0 }],
  bankAccount: BANK,
  mainUser: { username: 'newgroup-main', email: 'main@newgroup.example' },
  ...over,
});
