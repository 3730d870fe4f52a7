import { CashierApi, CheckoutApi, fillEndpoint, type AnyEndpoint, type Endpoint } from '@portal/contract';

/** The public checkout API (/api/checkout/{token}); errors carry the server's message in the buyer's language. */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

type Out<E> = E extends Endpoint<unknown, infer O, unknown> ? O : never;
type In<E> = E extends Endpoint<infer I, unknown, unknown> ? I : never;

/**
 * One public endpoint of the table (the buyer's checkout, the cashier view): plain fetch with the
 * buyer's language and the cashier's cookie, no portal token. GET input in the query, POST as a form.
 */
async function callPublic<E extends AnyEndpoint>(e: E, input: In<E>, lang: string): Promise<Out<E>> {
  const { path, rest } = fillEndpoint(e, input);
  const fields = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== null && v !== '') fields.append(k, String(v));
  const qs = fields.toString();
  const post = e.method !== 'GET';
  let res: Response;
  try {
    res = await fetch(post || !qs ? path : `${path}?${qs}`, {
      method: e.method,
      credentials: 'same-origin',
      headers: post ? { 'Accept-Language': lang, 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' } : { 'Accept-Language': lang },
      body: post ? qs : undefined,
    });
  } catch {
    throw new CheckoutError('', -1);
  }
  const body = (await res.json().catch(() => null)) as { code: number; msg: string; data: Out<E> } | null;
  if (!body) throw new CheckoutError('', res.status);
  if (body.code !== 0) throw new CheckoutError(body.msg, body.code);
  return body.data;
}

export const loadOrder = (token: string, lang: string, quiet = false) => callPublic(quiet ? CheckoutApi.status : CheckoutApi.order, { token }, lang);

export const pay = (token: string, lang: string, method: string, cardNumber?: string) => callPublic(CheckoutApi.pay, cardNumber ? { token, method, cardNumber } : { token, method }, lang);

/** A store's static QR: the store and what it takes. */
export const loadStore = (token: string, lang: string) => callPublic(CheckoutApi.store, { token }, lang);

/** The buyer's amount on a static QR becomes an order; the answer is its checkout link. */
export const orderAtStore = (token: string, lang: string, orderCurrency: string, totalAmount: string) => callPublic(CheckoutApi.storeOrder, { token, orderCurrency, totalAmount }, lang);

/** The cashier view (/pay/cashier): the signed-in cashier, its store's orders, sign out (cookie session). */
export const cashierMe = (lang: string) => callPublic(CashierApi.me, undefined, lang);
export const cashierOrders = (lang: string) => callPublic(CashierApi.orders, { page: 0, size: 30 }, lang);
export const cashierLogout = (lang: string) => callPublic(CashierApi.logout, undefined, lang);
/** Where the cashier view's "Sign in with WeChat" goes (a redirect, not a call). */
export const CASHIER_WECHAT_LOGIN = CashierApi.wechatLogin.path;
