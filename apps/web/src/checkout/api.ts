import type { CheckoutOrder, CheckoutPayResult, StoreCheckout } from '@portal/contract';

/** The public checkout API (/api/checkout/{token}); errors carry the server's message in the buyer's language. */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

async function call<T>(url: string, lang: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { 'Accept-Language': lang, ...init.headers } });
  } catch {
    throw new CheckoutError('', -1);
  }
  const body = (await res.json().catch(() => null)) as { code: number; msg: string; data: T } | null;
  if (!body) throw new CheckoutError('', res.status);
  if (body.code !== 0) throw new CheckoutError(body.msg, body.code);
  return body.data;
}

export const loadOrder = (token: string, lang: string, quiet = false) => call<CheckoutOrder>(`/api/checkout/${encodeURIComponent(token)}${quiet ? '/status' : ''}`, lang);

export const pay = (token: string, lang: string, method: string, cardNumber?: string) =>
  call<CheckoutPayResult>(`/api/checkout/${encodeURIComponent(token)}/pay`, lang, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: new URLSearchParams(cardNumber ? { method, cardNumber } : { method }).toString(),
  });

/** A store's static QR: the store and what it takes. */
export const loadStore = (token: string, lang: string) => call<StoreCheckout>(`/api/checkout/store/${encodeURIComponent(token)}`, lang);

/** The buyer's amount on a static QR becomes an order; the answer is its checkout link. */
export const orderAtStore = (token: string, lang: string, orderCurrency: string, totalAmount: string) =>
  call<{ orderNo: string; link: string }>(`/api/checkout/store/${encodeURIComponent(token)}/order`, lang, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: new URLSearchParams({ orderCurrency, totalAmount }).toString(),
  });
