/**
 * The one interface for what the portal asks of a payment gateway (decision 033,
 * docs/acquirer-adapter.md): refund, void, charge, and the status of an operation it was asked
 * before. Two implementations, chosen by configuration: the sandbox (default) and the HTTP
 * gateway adapter. An implementation never touches the database and never throws for the
 * gateway's sake: every outcome, including "no answer", is an `AcquirerAnswer`.
 */

export type OperationKind = 'refund' | 'void' | 'charge';

/** What is sent: the same body on every attempt, keyed by `idempotencyKey`. Amounts are decimal strings. */
export interface OperationRequest {
  kind: OperationKind;
  /** The transaction's gateway id (txn.gw_trans_id of the REFD / VOID / PURC row): sent on every attempt. */
  idempotencyKey: string;
  merchantId: string;
  orderNo: string;
  amount: string;
  currency: string;
  channel: string;
  brand: string | null;
  /** Refund / void: the purchase acted on. */
  original?: { gwTransId: string; orderNo: string; channelOrderNo: string | null };
  /** Charge: the card as stored (first six + last four); the full number travels only in `card`. */
  maskedCard?: string | null;
}

/** A charge's card number: held in memory for the first send only, never written anywhere. */
export interface CardSecret {
  number: string;
}

export type AcquirerAnswer =
  /** The gateway decided: '00' success, anything else failed. */
  | { kind: 'final'; gwResponse: string; respMsg: string | null; channelOrderNo?: string | null }
  /** The gateway took it and will decide later. */
  | { kind: 'processing'; respMsg: string | null }
  /** Status only: the gateway has no operation under this key (the request never reached it). */
  | { kind: 'not_found' }
  /** No usable answer: timeout, dropped connection, 5xx, 408/409/429, a body we cannot read. */
  | { kind: 'unknown'; error: string };

export interface Acquirer {
  /** 'sandbox' | 'http': recorded on the operation, and the `source` of the rows it makes. */
  readonly name: 'sandbox' | 'http';
  refund(req: OperationRequest): Promise<AcquirerAnswer>;
  void(req: OperationRequest): Promise<AcquirerAnswer>;
  charge(req: OperationRequest, card?: CardSecret): Promise<AcquirerAnswer>;
  /** The current state of an operation sent before (by its idempotency key). */
  status(req: OperationRequest): Promise<AcquirerAnswer>;
  /**
   * Issue 48: a dispute's answer — the evidence submitted, or the merchant's acceptance — sent with
   * the same idempotency key on every attempt; 'final' '00' = the gateway has it (confirmed).
   */
  dispute(req: DisputeRequest): Promise<AcquirerAnswer>;
}

/** Issue 48: what is sent of a dispute's answer (the files' content travels base64, with its hash). */
export interface DisputeRequest {
  kind: 'submit' | 'accept';
  idempotencyKey: string;
  merchantId: string;
  gwDisputeId: string;
  statement?: string | null;
  evidence?: { category: string; fileName: string; mime: string; sha256: string; content: string }[];
}
