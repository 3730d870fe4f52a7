import { useEffect, useRef, useState } from 'react';
import { LIMITS } from '@portal/contract';
import { getOrderStatus } from './api/get-order-status';

/** One poll of the countdown (spec §4): down by one; on reaching 1 polling stops and the count resets to 600. */
export function countdownTick(n: number): { next: number; stop: boolean } {
  const next = n - 1;
  return next <= 1 ? { next: LIMITS.qrCountdown, stop: true } : { next, stop: false };
}

/**
 * The QR dialog's polling (spec §4, §9): every 3 s the order status is fetched while `active`.
 * '00' (paid) and '01' (ended) stop it and are handed to `onResult`. A countdown starts at 600
 * and goes down by one per poll; on reaching 1 polling stops and the countdown resets (`stopped`
 * until `restart`).
 */
export type StatusFetcher = (orderNo: string, signal?: AbortSignal) => Promise<{ status: string }>;

export function useQrPolling(orderNo: string | null, active: boolean, onResult: (status: '00' | '01') => void, fetchStatus: StatusFetcher = getOrderStatus) {
  const [countdown, setCountdown] = useState<number>(LIMITS.qrCountdown);
  const [stopped, setStopped] = useState(false);
  const [round, setRound] = useState(0);
  // The latest callbacks, for the interval to call (kept after each render, not during it).
  const cb = useRef(onResult);
  const fetcher = useRef(fetchStatus);
  useEffect(() => {
    cb.current = onResult;
    fetcher.current = fetchStatus;
  });

  useEffect(() => {
    if (!orderNo || !active) return;
    let n: number = LIMITS.qrCountdown;
    let done = false;
    // oxlint-disable-next-line react/set-state-in-effect -- a new order's countdown starts with the polling this effect starts
    setCountdown(n);
    setStopped(false);
    const ctl = new AbortController();
    const timer = setInterval(async () => {
      if (done) return;
      const step = countdownTick(n);
      n = step.next;
      setCountdown(n);
      if (step.stop) {
        done = true;
        clearInterval(timer);
        setStopped(true);
        return;
      }
      try {
        const s = await fetcher.current(orderNo, ctl.signal);
        if (done) return;
        if (s.status === '00' || s.status === '01') {
          done = true;
          clearInterval(timer);
          cb.current(s.status);
        }
      } catch {
        /* the next poll tries again */
      }
    }, LIMITS.qrPollMs);
    return () => {
      done = true;
      clearInterval(timer);
      ctl.abort();
    };
  }, [orderNo, active, round]);

  return { countdown, stopped, restart: () => setRound((r) => r + 1) };
}
