import type { TestCtx } from '../../../test/helpers';
import { form } from '../../../test/helpers';

/** Test helpers of the pay-in-store suites (not used by the app). */
export function pis(ctx: TestCtx, token: string, lang = 'en') {
  const h = { 'x-token': token, 'accept-language': lang };
  return {
    add: (o: Record<string, string>) => {
      const f = form(o);
      return ctx.call({ method: 'POST', url: '/api/payInStore/add', headers: { ...h, ...f.headers }, payload: f.payload });
    },
    get: (url: string) => ctx.call({ method: 'GET', url, headers: h }),
    post: (url: string, o: Record<string, string> = {}) => {
      const f = form(o);
      return ctx.call({ method: 'POST', url, headers: { ...h, ...f.headers }, payload: f.payload });
    },
  };
}

const VALID_PIS = { orderCurrency: 'HKD', totalAmount: '58.00', goodsName: 'Milk tea ×2' };

/** Creates an in-store order and returns {id, orderNo, link, linkToken}. */
export async function createPis(ctx: TestCtx, token: string, storeId: string, over: Record<string, string> = {}) {
  const res = await pis(ctx, token).add({ storeId, ...VALID_PIS, ...over });
  if (res.body.code !== 0) throw new Error(`payInStore/add: ${res.body.msg}`);
  const d = res.body.data as { id: number; orderNo: string; link: string; expireTime: string };
  return { ...d, linkToken: d.link.split('/pay/')[1] };
}
