/**
 * API beside raw SQL under the same conditions: the two sides take turns in rounds (each round
 * `conc` closed-loop clients make `perRound` calls of one side, then of the other), so drift of
 * the machine — other work, caches warming, autovacuum — falls on both alike instead of on
 * whichever ran second.
 */
export interface Call {
  t: number;
  /** What the call counted (rows, total), compared between the sides by the caller. */
  n: number;
}

export interface Side {
  p50: number;
  p95: number;
  requests: number;
  n: number;
}

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const r1 = (x: number) => Math.round(x * 10) / 10;

async function round(fn: () => Promise<Call>, conc: number, per: number, into: number[]): Promise<number> {
  let n = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      for (let i = 0; i < per; i++) {
        const c = await fn();
        into.push(c.t);
        n = c.n;
      }
    }),
  );
  return n;
}

export async function compare(api: () => Promise<Call>, raw: () => Promise<Call>, o: { conc: number; rounds: number; perRound: number }) {
  const a: number[] = [];
  const r: number[] = [];
  let na = 0;
  let nr = 0;
  for (let i = 0; i < o.rounds; i++) {
    // Alternate which side goes first, too.
    if (i % 2 === 0) {
      na = await round(api, o.conc, o.perRound, a);
      nr = await round(raw, o.conc, o.perRound, r);
    } else {
      nr = await round(raw, o.conc, o.perRound, r);
      na = await round(api, o.conc, o.perRound, a);
    }
  }
  const side = (xs: number[], n: number): Side => ({ p50: r1(pct(xs, 50)), p95: r1(pct(xs, 95)), requests: xs.length, n });
  const A = side(a, na);
  const R = side(r, nr);
  return {
    api: A,
    raw: R,
    row: {
      apiP50: A.p50,
      apiP95: A.p95,
      rawP50: R.p50,
      rawP95: R.p95,
      ratioP50: Math.round((pct(a, 50) / pct(r, 50)) * 100) / 100,
      ratioP95: Math.round((pct(a, 95) / pct(r, 95)) * 100) / 100,
      requests: A.requests,
    },
  };
}
