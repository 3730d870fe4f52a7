import { toDecimal, toMinor } from '@portal/contract';

/**
 * Per currency, the sum of each money column over the page's rows (exact: minor units in bigint).
 * A column whose values are unsigned (the daily summary's Amount: a refund's is positive on the
 * wire) names each row's `sign`, so a refund or a reserve held subtracts (issue 53).
 */
export function pageTotals<R>(
  rows: R[],
  columns: { key: string; money?: { value: (r: R) => string; currency: (r: R) => string; sign?: (r: R) => 1 | -1 } }[],
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
      m.set(c.key, (m.get(c.key) ?? 0n) + BigInt(toMinor(v, cur)) * BigInt(c.money.sign?.(r) ?? 1));
    }
  }
  return [...sums.keys()].sort().map((currency) => {
    const values: Record<string, string> = {};
    for (const [k, v] of sums.get(currency)!) values[k] = toDecimal(v, currency);
    return { currency, values };
  });
}
