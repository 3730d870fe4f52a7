import { describe, expect, it } from 'vitest';
import { countdownTick } from './use-qr-polling';

describe('QR polling countdown (spec §4)', () => {
  it('starts at 600, goes down by one per poll, stops and resets on reaching 1', () => {
    let n = 600;
    let polls = 0;
    for (;;) {
      const s = countdownTick(n);
      n = s.next;
      if (s.stop) break;
      polls++;
    }
    expect(polls).toBe(598); // 599 … 2 poll; the tick that reaches 1 stops
    expect(n).toBe(600);
    expect(countdownTick(600)).toEqual({ next: 599, stop: false });
    expect(countdownTick(2)).toEqual({ next: 600, stop: true });
  });
});

describe('pay-by-link detail refetch (issue 29 finding 4)', () => {
  it('polls every 3 s while the order can still change, never once paid or closed', async () => {
    const { pblDetailRefetch } = await import('./api/get-pbl-detail');
    expect(pblDetailRefetch({ status: '04', openStatus: '02' })).toBe(3000);
    expect(pblDetailRefetch({ status: '04', openStatus: '00' })).toBe(3000);
    expect(pblDetailRefetch({ status: '00', openStatus: '00' })).toBe(false);
    expect(pblDetailRefetch({ status: '04', openStatus: '01' })).toBe(false);
    expect(pblDetailRefetch(undefined)).toBe(false);
  });
});
