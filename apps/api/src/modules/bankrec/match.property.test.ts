import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysOutside, explainCredit, explainTransfer, feeTolerance, proposeMatches, signatureOf, type Credit, type Transfer } from './match';

const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const tid = (i: number, cur: string) => `${addDays('2026-01-01', i % 200)}.${String(100000000000000 + (i % 3)).padStart(15, '0')}.L${i}.${cur}`;

/** Transfers, and the credits a bank would book for them: exact, short by a fee, batched, split, late, stray. */
const scenario = fc
  .array(
    fc.record({
      amount: fc.integer({ min: 1000, max: 50_000_000 }),
      currency: fc.constantFrom('USD', 'HKD', 'JPY'),
      day: fc.integer({ min: 0, max: 120 }),
      how: fc.constantFrom('exact', 'fee', 'ref', 'split', 'late', 'none'),
      lag: fc.integer({ min: -1, max: 4 }),
      fee: fc.integer({ min: 1, max: 5000 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) => {
    const transfers: Transfer[] = [];
    // Each credit remembers the transfer it was made for (`of`; the matcher does not read it).
    const credits: (Credit & { of: string })[] = [];
    let id = 1;
    rows.forEach((r, i) => {
      const t: Transfer = { id: tid(i, r.currency), amount: r.amount, currency: r.currency, remitDate: addDays('2026-01-01', r.day) };
      transfers.push(t);
      const date = addDays(t.remitDate, r.lag);
      const credit = (amount: number, reference: string | null = null, d = date) => credits.push({ id: id++, amount, currency: r.currency, date: d, reference, description: null, of: t.id });
      if (r.how === 'exact') credit(t.amount);
      if (r.how === 'fee') credit(t.amount - Math.min(r.fee, feeTolerance(t.amount, t.currency)) || t.amount);
      if (r.how === 'ref') credit(t.amount, `PAYOUT ${t.id}`);
      if (r.how === 'split') {
        credit(Math.floor(t.amount / 2));
        credit(t.amount - Math.floor(t.amount / 2));
      }
      if (r.how === 'late') credit(t.amount, null, addDays(t.remitDate, 9));
    });
    return { transfers, credits };
  });

describe('the matcher on generated statements and transfers', () => {
  it('every proposal adds up, stays in one currency and its window, a fee within the tolerance; nothing used twice', () => {
    fc.assert(
      fc.property(scenario, ({ transfers, credits }) => {
        const ps = proposeMatches(credits, transfers);
        const usedC = new Set<number>();
        const usedT = new Set<string>();
        const T = new Map(transfers.map((t) => [t.id, t]));
        const C = new Map(credits.map((c) => [c.id, c]));
        for (const p of ps) {
          for (const e of p.entryIds) {
            expect(usedC.has(e)).toBe(false);
            usedC.add(e);
          }
          for (const t of p.transferIds) {
            expect(usedT.has(t)).toBe(false);
            usedT.add(t);
          }
          const cs = p.entryIds.map((e) => C.get(e)!);
          const tsx = p.transferIds.map((t) => T.get(t)!);
          expect(cs.reduce((s, c) => s + c.amount, 0)).toBe(p.credit);
          expect(tsx.reduce((s, t) => s + t.amount, 0)).toBe(p.transfer);
          expect(p.fee).toBe(p.transfer - p.credit);
          expect(p.fee).toBeGreaterThanOrEqual(0);
          expect(p.fee).toBeLessThanOrEqual(feeTolerance(p.transfer, p.currency));
          expect(p.kind === 'fee').toBe(p.fee > 0 && p.transferIds.length === 1);
          for (const x of [...cs, ...tsx]) expect(x.currency).toBe(p.currency);
          if (!p.byReference) for (const c of cs) for (const t of tsx) expect(daysOutside(c.date, t.remitDate)).toBe(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a credit naming its transfer is matched to it; a late credit is not matched and the why says by how many days', () => {
    fc.assert(
      fc.property(scenario, ({ transfers, credits }) => {
        const ps = proposeMatches(credits, transfers);
        for (const c of credits.filter((x) => x.reference?.startsWith('PAYOUT '))) {
          const p = ps.find((x) => x.entryIds.includes(c.id));
          expect(p?.transferIds).toEqual([c.reference!.slice(7)]);
          expect(p?.byReference).toBe(true);
        }
        const matchedC = new Set(ps.flatMap((p) => p.entryIds));
        const freeT = transfers.filter((t) => !ps.some((p) => p.transferIds.includes(t.id)));
        for (const c of credits.filter((x) => !matchedC.has(x.id))) {
          const why = explainCredit(c, freeT);
          if (why.nearest) expect(why.why.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('when every amount is different, each exact, fee-short, split or referenced credit finds its own transfer', () => {
    fc.assert(
      fc.property(scenario, ({ transfers, credits }) => {
        const amounts = transfers.map((t) => t.amount);
        fc.pre(new Set(amounts).size === amounts.length);
        // No two transfers close enough in amount for a fee or a sum to be mistaken.
        const sorted = [...amounts].sort((a, b) => a - b);
        fc.pre(sorted.every((a, i) => i === 0 || a - sorted[i - 1] > 100_000));
        fc.pre(sorted.length < 2 || sorted[0] * 2 > sorted[sorted.length - 1]);
        const ps = proposeMatches(credits, transfers);
        for (const c of credits) {
          // A late credit (outside its own transfer's window) is not expected to match.
          if (daysOutside(c.date, transfers.find((t) => t.id === c.of)!.remitDate) !== 0) continue;
          expect(
            ps.some((p) => p.entryIds.includes(c.id)),
            `credit ${c.id}`,
          ).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('fixed cases: batch of two, split in three, a fee, near-misses explained, a dismissed proposal not made again', () => {
    const t = (id: string, amount: number, remitDate = '2026-03-02'): Transfer => ({ id, amount, currency: 'USD', remitDate });
    const c = (id: number, amount: number, date = '2026-03-03', reference: string | null = null): Credit => ({ id, amount, currency: 'USD', date, reference, description: null });
    const A = '2026-03-01.100000000000001.CARD.USD';
    const B = '2026-03-01.100000000000001.WX.USD';
    const ps = proposeMatches([c(1, 300_00), c(2, 100_00), c(3, 200_00), c(4, 150_00), c(5, 99_75)], [t(A, 100_00), t(B, 200_00), t('X', 450_00), t('Y', 100_00)]);
    expect(ps.map((p) => [p.kind, p.entryIds, p.transferIds, p.fee])).toEqual([
      ['exact', [2], [A], 0],
      ['exact', [3], [B], 0],
      ['fee', [5], ['Y'], 25],
      ['split', [1, 4], ['X'], 0],
    ]);
    const batch = proposeMatches([c(9, 300_00)], [t(A, 100_00), t(B, 200_00)]);
    expect(batch.map((p) => [p.kind, p.transferIds])).toEqual([['batch', [A, B]]]);
    expect(proposeMatches([c(9, 300_00)], [t(A, 100_00), t(B, 200_00)], new Set([signatureOf([9], [B, A])]))).toEqual([]);
    // Near-misses: amount off, outside the window, another transfer's reference, a fee too large.
    expect(explainCredit(c(7, 100_01), [t(A, 100_00)]).why).toEqual([{ code: 'amountOff', diff: 1, currency: 'USD' }]);
    expect(explainCredit(c(7, 100_00, '2026-03-12'), [t(A, 100_00)]).why).toEqual([{ code: 'dateOutside', days: 6 }]);
    expect(explainCredit(c(7, 100_00, '2026-03-03', `REF ${B}`), [t(A, 100_00)]).why).toEqual([{ code: 'referenceDiffers', reference: B }]);
    expect(explainCredit(c(7, 90_00), [t(A, 100_00)]).why).toEqual([{ code: 'feeTooLarge', diff: -10_00, currency: 'USD', max: 1_00 }]);
    expect(explainTransfer(t(A, 100_00), [c(7, 100_00, '2026-02-20')])).toEqual({ nearest: 7, why: [{ code: 'dateOutside', days: -9 }] });
  });
});
