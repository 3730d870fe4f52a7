-- Issue 25 §2 (decision 033): what the portal asks of a gateway (refund, void, charge) is recorded
-- here in the same database transaction that reserves the money and writes the processing ('04')
-- transaction row, and sent only after COMMIT. The row is the outbox entry and the idempotency
-- key: `op_key` is the transaction's gateway id (txn.gw_trans_id), sent on every attempt, so the
-- gateway can never act on it twice. A job asks the gateway again (status, or the same request)
-- with exponential backoff until the operation is settled one way or the other.
CREATE TABLE acquirer_operation (
  id               bigserial PRIMARY KEY,
  op_key           text NOT NULL UNIQUE,                 -- idempotency key = txn.gw_trans_id of txn_id
  kind             text NOT NULL CHECK (kind IN ('refund', 'void', 'charge')),
  acquirer         text NOT NULL,                        -- 'sandbox' or 'http': who was asked
  txn_id           bigint NOT NULL UNIQUE REFERENCES txn_key (id),   -- the REFD / VOID / PURC row, '04' until settled
  purchase_id      bigint REFERENCES txn_key (id),       -- refund / void: the purchase whose return_amount holds the reservation
  order_id         bigint,                               -- charge: the pay-by-link / in-store order
  mer_id           varchar(15) NOT NULL,
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         char(3) NOT NULL,
  request          jsonb NOT NULL,                       -- the body sent (no full card number: never stored)
  context          jsonb NOT NULL DEFAULT '{}',          -- ours, not sent: the asker's language, request key, order number
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts         int NOT NULL DEFAULT 0,               -- gateway exchanges so far (requests and status queries)
  next_attempt_at  timestamptz NOT NULL,                 -- when the job asks again (pending only)
  last_error       text,                                 -- the last transport error or gateway message
  gw_response      text,                                 -- the final result code once settled
  resp_msg         text,
  created_by       int,                                  -- the user who asked (null: system)
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  settled_at       timestamptz
);
CREATE INDEX acquirer_operation_due_idx ON acquirer_operation (next_attempt_at) WHERE state = 'pending';
CREATE INDEX acquirer_operation_purchase_idx ON acquirer_operation (purchase_id) WHERE purchase_id IS NOT NULL;
