-- Disputes (issue 48, decision 060, docs/disputes.md): chargebacks, inquiries and pre-arbitrations
-- raised by a card holder's bank against a purchase, answered by the merchant with evidence.
--
-- The money a dispute moves is written to the ledger as transactions of their own (DISPUTE debit,
-- DISPUTE_REVERSAL credit when won, DISPUTE_FEE), so the settlement run, every report, the
-- settleList drill-down and the monthly statement count them as any other type; dispute_movement
-- is the dispute's own record of those rows, keyed by merchant, settlement day and the settlement
-- row (merchant, business line, settlement currency, day) they joined.

-- The ledger learns the new types.
ALTER TABLE txn DROP CONSTRAINT IF EXISTS txn_tran_type_check;
ALTER TABLE txn ADD CONSTRAINT txn_tran_type_check CHECK (tran_type IN ('PURC','REFD','VOID','MANENTD','PAUT','DISPUTE','DECL','FREEZE','UNFREEZE',
  'PROFIT_INCOME','PROFIT_OUTGO','FEE_COLLECTION','DISPUTE_REVERSAL','DISPUTE_FEE'));
-- A purchase's open or lost chargeback debits (its transaction currency): with its refunds never more
-- than the purchase (invariant I8). The refund guard and the dispute's debit both move it in one
-- UPDATE of the purchase row.
ALTER TABLE txn ADD COLUMN disputed_amount bigint NOT NULL DEFAULT 0;
ALTER TABLE txn ADD CONSTRAINT txn_disputed_amount_check CHECK (disputed_amount >= 0 AND return_amount + disputed_amount <= amount);

-- The dispute fee (settlement currency minor units), effective-dated like the other fees.
ALTER TABLE merchant_fee ADD COLUMN dispute_fee bigint NOT NULL DEFAULT 0 CHECK (dispute_fee >= 0);
ALTER TABLE merchant_fee_schedule ADD COLUMN dispute_fee bigint NOT NULL DEFAULT 0 CHECK (dispute_fee >= 0);

CREATE TABLE dispute (
  id               bigserial PRIMARY KEY,
  gw_dispute_id    text NOT NULL UNIQUE,                  -- the gateway's id (idempotency of notifications)
  connection_id    text,                                  -- the gateway connection that reported it (null: sandbox / back office)
  mer_id           varchar(15) NOT NULL REFERENCES merchant (mer_id),
  purchase_id      bigint NOT NULL REFERENCES txn_key (id),
  kind             text NOT NULL CHECK (kind IN ('inquiry', 'chargeback', 'pre_arbitration')),
  state            text NOT NULL CHECK (state IN ('needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired')),
  brand            text NOT NULL,
  reason_code      text NOT NULL,
  amount           bigint NOT NULL CHECK (amount > 0),    -- disputed, transaction currency minor units
  currency         char(3) NOT NULL,
  debit_amount     bigint NOT NULL DEFAULT 0 CHECK (debit_amount >= 0),  -- the part debited (not already refunded)
  refunded_before  bigint NOT NULL DEFAULT 0,             -- the purchase's refunds when it arrived (shown to answer with)
  deadline         timestamptz NOT NULL,                  -- respond by
  opened_at        timestamptz NOT NULL,
  closed_at        timestamptz,
  statement        text,                                  -- the merchant's written answer (draft until submitted)
  submitted_at     timestamptz,
  submitted_by     int,
  accepted_at      timestamptz,
  outcome_by       text,                                  -- who reported the outcome: gateway:<id>, operator:<name>, sandbox
  send_state       text CHECK (send_state IN ('sending', 'sent', 'failed')),  -- the answer to the gateway
  version          int NOT NULL DEFAULT 1,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
-- One open dispute per kind and purchase.
CREATE UNIQUE INDEX dispute_open_kind_idx ON dispute (purchase_id, kind) WHERE state IN ('needs_response', 'under_review');
CREATE INDEX dispute_mer_deadline_idx ON dispute (mer_id, deadline, id);
CREATE INDEX dispute_purchase_idx ON dispute (purchase_id);

CREATE TABLE dispute_evidence (
  id           bigserial PRIMARY KEY,
  dispute_id   bigint NOT NULL REFERENCES dispute (id),
  category     text NOT NULL CHECK (category IN ('receipt', 'proof_of_delivery', 'refund_policy', 'correspondence', 'other')),
  file_name    text NOT NULL,
  mime         text NOT NULL CHECK (mime IN ('application/pdf', 'image/jpeg', 'image/png')),
  size         int NOT NULL CHECK (size > 0 AND size <= 4718592),
  sha256       text NOT NULL,
  content      bytea NOT NULL,
  uploaded_by  int,
  uploaded_at  timestamptz NOT NULL DEFAULT now(),
  submitted    boolean NOT NULL DEFAULT false                -- immutable once true
);
CREATE INDEX dispute_evidence_dispute_idx ON dispute_evidence (dispute_id);

-- Every money movement of a dispute: the ledger row (txn_id) and its amount in settlement currency;
-- settle_date, bus_line, set_cur name the settlement row it joined (filled by the settlement run).
CREATE TABLE dispute_movement (
  id           bigserial PRIMARY KEY,
  dispute_id   bigint NOT NULL REFERENCES dispute (id),
  mer_id       varchar(15) NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('debit', 'credit', 'fee')),
  txn_id       bigint NOT NULL UNIQUE REFERENCES txn_key (id),
  bus_line     text NOT NULL,
  set_cur      char(3) NOT NULL,
  amount       bigint NOT NULL CHECK (amount >= 0),          -- settlement currency minor units, unsigned (kind gives the sign)
  settle_date  date,                                         -- the settlement day it joined; null until the run
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dispute_movement_day_idx ON dispute_movement (mer_id, settle_date, bus_line, set_cur);
CREATE INDEX dispute_movement_unsettled_idx ON dispute_movement (txn_id) WHERE settle_date IS NULL;
CREATE INDEX dispute_movement_dispute_idx ON dispute_movement (dispute_id);

-- Outbound answers (evidence submit, accept): recorded in the transaction that changes the
-- dispute, sent after commit with the same idempotency key until the gateway confirms.
CREATE TABLE dispute_operation (
  id               bigserial PRIMARY KEY,
  op_key           text NOT NULL UNIQUE,
  dispute_id       bigint NOT NULL REFERENCES dispute (id),
  kind             text NOT NULL CHECK (kind IN ('submit', 'accept')),
  acquirer         text NOT NULL,
  request          jsonb NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'failed')),
  attempts         int NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  settled_at       timestamptz
);
CREATE INDEX dispute_operation_due_idx ON dispute_operation (next_attempt_at) WHERE state = 'pending';

-- Deadline reminders (7, 3, 1 days before), each at most once per dispute and user.
CREATE TABLE dispute_reminder (
  dispute_id  bigint NOT NULL REFERENCES dispute (id),
  days        int NOT NULL CHECK (days IN (7, 3, 1)),
  user_id     int NOT NULL,
  email       text NOT NULL,
  lang        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz,
  PRIMARY KEY (dispute_id, days, user_id)
);
CREATE INDEX dispute_reminder_unsent_idx ON dispute_reminder (created_at) WHERE sent_at IS NULL;

-- Webhook events through the outbox (migration 075): dispute.created on insert, dispute.updated on
-- a change of state (the answer submitted: under review), dispute.closed (with the outcome) when it reaches a final state.
CREATE FUNCTION webhook_dispute_data(d dispute) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', d.gw_dispute_id, 'disputeId', d.id, 'merId', d.mer_id, 'kind', d.kind, 'state', d.state,
    'brand', d.brand, 'reasonCode', d.reason_code, 'amount', d.amount, 'currency', d.currency,
    'deadline', d.deadline, 'transactionId', d.purchase_id,
    'gatewayId', (SELECT k.gw_trans_id FROM txn_key k WHERE k.id = d.purchase_id),
    'outcome', CASE WHEN d.state IN ('won', 'lost', 'accepted', 'expired') THEN d.state END)
$$;
CREATE FUNCTION webhook_dispute() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit(NEW.mer_id, 'dispute.created', webhook_dispute_data(NEW));
    IF NEW.state IN ('won', 'lost', 'accepted', 'expired') THEN
      PERFORM webhook_emit(NEW.mer_id, 'dispute.closed', webhook_dispute_data(NEW));
    END IF;
  ELSIF NEW.state IN ('won', 'lost', 'accepted', 'expired') AND OLD.state NOT IN ('won', 'lost', 'accepted', 'expired') THEN
    PERFORM webhook_emit(NEW.mer_id, 'dispute.closed', webhook_dispute_data(NEW));
  ELSE
    PERFORM webhook_emit(NEW.mer_id, 'dispute.updated', webhook_dispute_data(NEW));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER dispute_webhook_insert AFTER INSERT ON dispute FOR EACH ROW EXECUTE FUNCTION webhook_dispute();
CREATE TRIGGER dispute_webhook_update AFTER UPDATE OF state ON dispute FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION webhook_dispute();

-- The permissions (packages/contract): a merchant's administrators get both; users who may refund
-- (finance) may answer disputes; everyone who reads transactions may read them.
UPDATE app_user SET permissions = array_append(permissions, 'dispute:view')
 WHERE ('txn:list' = ANY(permissions) OR user_admin) AND NOT ('dispute:view' = ANY(permissions));
UPDATE app_user SET permissions = array_append(permissions, 'dispute:respond')
 WHERE (user_admin OR 'txn:detail:refund' = ANY(permissions)) AND NOT ('dispute:respond' = ANY(permissions));
