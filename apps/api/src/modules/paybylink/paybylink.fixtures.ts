import type { TestCtx } from '../../../test/helpers';
import { form } from '../../../test/helpers';

/** Test helpers of the pay-by-link suites (not used by the app). */

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
export const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
export const XLS = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504, 0)]);
export const CSV = Buffer.from('invoice,amount\nINV-1,100.00\n');
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0)]);

/** A multipart/form-data body with one file. */
export function multipartFile(name: string, content: Buffer, field = 'file') {
  const b = `----pbl${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { headers: { 'content-type': `multipart/form-data; boundary=${b}` }, payload };
}

export const VALID_ORDER = {
  reconId: 'INV-2026-001',
  orderCurrency: 'USD',
  totalAmount: '120.50',
  goodsName: 'Blue widget',
  goodsPrice: '120.50',
  goodsQuantity: '1',
  logFee: '0',
  remarks: 'thank you',
  buyerEmail: '',
  sendEmailChecked: 'false',
};

export function pbl(ctx: TestCtx, token: string, lang = 'en') {
  const h = { 'x-token': token, 'accept-language': lang };
  return {
    add: (o: Record<string, string>) => {
      const f = form(o);
      return ctx.call({ method: 'POST', url: '/api/payByLink/add', headers: { ...h, ...f.headers }, payload: f.payload });
    },
    update: (o: Record<string, string>) => {
      const f = form(o);
      return ctx.call({ method: 'POST', url: '/api/payByLink/updateOrder', headers: { ...h, ...f.headers }, payload: f.payload });
    },
    upload: (name: string, content: Buffer) => {
      const m = multipartFile(name, content);
      return ctx.call({ method: 'POST', url: '/api/payByLink/uploadFile', headers: { ...h, ...m.headers }, payload: m.payload });
    },
    get: (url: string) => ctx.call({ method: 'GET', url, headers: h }),
    raw: (url: string) => ctx.app.inject({ method: 'GET', url, headers: h }),
    qrList: (link: string, orderCurrency?: string) => {
      const f = form(orderCurrency ? { link, orderCurrency } : { link });
      return ctx.call({ method: 'POST', url: '/api/payByLink/qrList', headers: { ...h, ...f.headers }, payload: f.payload });
    },
  };
}

/** Creates an order as `token`'s user and returns {id, orderNo, payByLink, token (of the link)}. */
export async function createOrder(ctx: TestCtx, token: string, over: Record<string, string> = {}) {
  const res = await pbl(ctx, token).add({ ...VALID_ORDER, ...over });
  if (res.body.code !== 0) throw new Error(`add: ${res.body.msg}`);
  const d = res.body.data as { id: number; orderNo: string; payByLink: string; emailStatus: string };
  return { ...d, linkToken: d.payByLink.split('/pay/')[1] };
}

/** The buyer pays on the hosted checkout (public). */
export function buyerPay(ctx: TestCtx, linkToken: string, method = 'visa', cardNumber = '4111111111111111') {
  const f = form(cardNumber ? { method, cardNumber } : { method });
  return ctx.call({ method: 'POST', url: `/api/checkout/${linkToken}/pay`, headers: f.headers, payload: f.payload });
}
