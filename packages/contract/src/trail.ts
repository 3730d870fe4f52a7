/**
 * One timeline per order (issue 49 §3): the answer of /api/trail/timeline, shared by the server
 * and the screen (types only: the web bundle stays zod-free).
 */
export interface TimelineEvent {
  source: string;
  at: string;
  day: string | null;
  kind: string;
  actor: string | null;
  ref: string | null;
  txnId: string | null;
  currency: string | null;
  amount: string | null;
  status: string | null;
  transferId: string | null;
}

export interface Timeline {
  merId: string;
  orderNo: string;
  events: TimelineEvent[];
}
