import { toDecimal, toMinor } from '@portal/contract';

/** Per currency, the sum of each money column over the page's rows (exact: minor units in bigint). */
export function pageTotals<R>(
  rows: R[],
  columns: { key: string; money?: { value: (r: R) => string; currency: (r: R) => string } }[],
): { currency: string; values: Record<string, string> }[] {
  const sums = new Map<string, Map<string, bigint>>();
  for (const c of columns) {
    if (!c.money) continue;
    for (const r of rows) {
      const cur = c.money.currency(r);
      const v = c.money.value(r);
      if (!cur || v === null || v === undefined || v === '') continue;
      let m = sums.get(cur);
      if (!m) sums.set(cur, (m = new Map()));
      m.set(c.key, (m.get(c.key) ?? 0n) + BigInt(toMinor(v, cur)));
    }
  }
  return [...sums.keys()].sort().map((currency) => {
    const values: Record<string, string> = {};
    for (const [k, v] of sums.get(currency)!) values[k] = toDecimal(v, currency);
    return { currency, values };
  });
}
