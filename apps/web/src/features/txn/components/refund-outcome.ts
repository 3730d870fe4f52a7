import type { RefundResult } from '@portal/contract';

/** How the dialog tells a refund's answer: what kind of message, which text, and whether to leave for the list. */
export interface RefundNotice {
  kind: 'success' | 'info' | 'error';
  /** A txn namespace key to show (else `text`, the server's message). */
  key?: 'refund.success' | 'refund.processing';
  text?: string;
  duration?: number;
  leave: boolean;
}

/**
 * Accepted and confirmed → success; accepted but not confirmed by the gateway yet (gwResponse
 * '04': slow, unreachable, or still deciding) → an information message that it shows as processing
 * until the gateway answers — never "successful"; anything else → the server's message as an error.
 */
export function refundNotice(res: RefundResult): RefundNotice {
  // Four eyes (issue 28): waiting for a second user's approval — told, not an error.
  if (res.code === 5) return { kind: 'info', text: res.msg, duration: 6, leave: true };
  if (res.code === 0 && res.gwResponse === '04') return { kind: 'info', key: 'refund.processing', duration: 6, leave: true };
  if (res.code === 0) return res.msg ? { kind: 'success', text: res.msg, duration: 0.8, leave: true } : { kind: 'success', key: 'refund.success', duration: 0.8, leave: true };
  return { kind: 'error', text: res.msg, leave: false };
}
