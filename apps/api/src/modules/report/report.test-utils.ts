/** Helpers of the report tests: whole lists through the API, decimal strings back to minor units. */
import { toMinor } from '@portal/contract';
import type { TestCtx } from '../../../test/helpers';

const auth = (token: string) => ({ 'x-token': token });

/** GET with query params; returns the parsed envelope. */
export async function get<T = any>(ctx: TestCtx, token: string, url: string, params: Record<string, string | number | undefined> = {}) {
  const qs = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
  return ctx.call<T>({ method: 'GET', url: `${url}${qs ? `?${qs}` : ''}`, headers: auth(token) });
}

/** Every row of a paged report (size 100, 0-based pages), checking totalElements on the way. */
export async function fetchAll<R = any>(ctx: TestCtx, token: string, url: string, params: Record<string, string | number | undefined>): Promise<R[]> {
  const out: R[] = [];
  for (let page = 0; ; page++) {
    const r = await get<{ content: R[]; totalElements: number }>(ctx, token, url, { ...params, page, size: 100 });
    if (r.body.code !== 0) throw new Error(`${url}: ${r.body.code} ${r.body.msg}`);
    out.push(...r.body.data.content);
    if (r.body.data.content.length < 100) {
      if (out.length !== r.body.data.totalElements) throw new Error(`${url}: ${out.length} rows, totalElements ${r.body.data.totalElements}`);
      return out;
    }
  }
}

/** Decimal string of `cur` → minor units (throws on a wrong exponent). */
export const minor = (v: string, cur: string) => toMinor(v, cur);

/** Adds to a number in a map under `key`. */
export function bump(m: Map<string, number>, key: string, v: number) {
  m.set(key, (m.get(key) ?? 0) + v);
}
