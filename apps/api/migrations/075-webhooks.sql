-- Webhooks to merchants (issue 31; decision 040). An endpoint belongs to one merchant; every event
-- of a subscribed type is written — by the triggers below, in the very transaction of the change
-- that caused it — to webhook_event with one webhook_delivery per subscribed endpoint (the outbox).
-- The job runner sends the deliveries after commit; each try is a webhook_attempt row.

CREATE TABLE webhook_endpoint (
  id                 bigserial PRIMARY KEY,
  mer_id             varchar(15) NOT NULL REFERENCES merchant(mer_id),
  url                text NOT NULL,
  description        text NOT NULL DEFAULT '',
  events             text[] NOT NULL,
  enabled            boolean NOT NULL DEFAULT true,
  -- why it is off: 'user' (turned off on the screen) or 'failing' (3 days of failed deliveries)
  disabled_reason    text CHECK (disabled_reason IN ('user', 'failing')),
  disabled_at        timestamptz,
  -- the signing secret, AES-256-GCM with PROVIDER_KEY_ENCRYPTION_KEY; the key id is the associated data
  secret_key_id      text NOT NULL,
  secret_enc         text NOT NULL,
  -- the secret before the last rotation, still signing (a second v1) until prev_secret_until
  prev_secret_key_id text,
  prev_secret_enc    text,
  prev_secret_until  timestamptz,
  created_by         int REFERENCES app_user(id),
  -- the language of the owners' e-mails (the creator's at creation)
  lang               text NOT NULL DEFAULT 'en',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (enabled = (disabled_reason IS NULL))
);
CREATE INDEX webhook_endpoint_mer_idx ON webhook_endpoint (mer_id, id);

CREATE TABLE webhook_event (
  id          bigserial PRIMARY KEY,
  -- the id the receiver sees (body and header), the same on every retry and resend
  event_id    text NOT NULL UNIQUE DEFAULT 'evt_' || replace(gen_random_uuid()::text, '-', ''),
  mer_id      varchar(15) NOT NULL REFERENCES merchant(mer_id),
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_event_mer_idx ON webhook_event (mer_id, created_at DESC);

CREATE TABLE webhook_delivery (
  id               bigserial PRIMARY KEY,
  event_id         bigint NOT NULL REFERENCES webhook_event(id),
  endpoint_id      bigint NOT NULL REFERENCES webhook_endpoint(id),
  mer_id           varchar(15) NOT NULL REFERENCES merchant(mer_id),
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts         int NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  -- retried until this instant (the event's time + 3 days; a resend starts a new window)
  give_up_at       timestamptz NOT NULL,
  -- a sender's claim (a lease: a process that died lets it go when it runs out)
  lease_until      timestamptz,
  last_status      int,
  last_attempt_at  timestamptz,
  -- a person asked for the next try (resend): its attempt row says so
  manual_pending   boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_delivery_due_idx ON webhook_delivery (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_delivery_endpoint_idx ON webhook_delivery (endpoint_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempt (
  id               bigserial PRIMARY KEY,
  delivery_id      bigint NOT NULL REFERENCES webhook_delivery(id),
  started_at       timestamptz NOT NULL,
  finished_at      timestamptz,
  -- 'sending' is written before the request leaves (so a crash mid-send still shows the try)
  outcome          text NOT NULL DEFAULT 'sending' CHECK (outcome IN ('sending', 'succeeded', 'failed', 'refused')),
  status           int,
  latency_ms       int,
  address          text,
  response_excerpt text,
  error            text,
  next_retry_at    timestamptz,
  manual           boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_attempt_delivery_idx ON webhook_attempt (delivery_id, id);

-- One event for a merchant: written only when an enabled endpoint of that merchant wants its type,
-- with one delivery per such endpoint. Runs inside the caller's transaction (it rolls back with it).
CREATE FUNCTION webhook_emit(p_mer text, p_type text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE ev bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoint WHERE mer_id = p_mer AND enabled AND p_type = ANY(events)) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_event (mer_id, type, data) VALUES (p_mer, p_type, p_data) RETURNING id INTO ev;
  INSERT INTO webhook_delivery (event_id, endpoint_id, mer_id, next_attempt_at, give_up_at)
    SELECT ev, e.id, e.mer_id, clock_timestamp(), clock_timestamp() + interval '3 days'
      FROM webhook_endpoint e WHERE e.mer_id = p_mer AND e.enabled AND p_type = ANY(e.events);
END $$;

-- A purchase or refund becomes final (inserted final, or moved from processing to final):
-- transaction.succeeded / failed, refund.succeeded / failed.
CREATE FUNCTION webhook_txn_data(t txn) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.gw_trans_id, 'merId', t.mer_id, 'orderNo', t.order_no, 'type', t.tran_type,
    'amount', t.amount, 'currency', t.currency, 'channel', t.payment_schema, 'brand', t.payment_brand,
    'gwResponse', t.gw_response, 'respMsg', t.resp_msg, 'time', t.txn_time,
    'originalOrderNo', t.origin_order_no, 'storeId', t.store_id)
$$;
CREATE FUNCTION webhook_txn_type(t txn) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE t.tran_type WHEN 'PURC' THEN 'transaction.' ELSE 'refund.' END || CASE WHEN t.gw_response = '00' THEN 'succeeded' ELSE 'failed' END
$$;

-- Inserts: one call per statement over its rows (bulk loads and the feed's batches insert
-- thousands at once; with no endpoint of their merchants this is one index probe per statement).
CREATE FUNCTION webhook_txn_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoint WHERE enabled) THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(n.mer_id, webhook_txn_type(n), webhook_txn_data(n))
     FROM (SELECT * FROM new_rows ORDER BY id) n
    WHERE n.tran_type IN ('PURC', 'REFD') AND n.gw_response IS NOT NULL AND n.gw_response NOT IN ('', '04')
      AND EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.mer_id = n.mer_id AND e.enabled);
  RETURN NULL;
END $$;

CREATE FUNCTION webhook_txn_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.mer_id, webhook_txn_type(NEW), webhook_txn_data(NEW));
  RETURN NULL;
END $$;

CREATE TRIGGER txn_webhook_insert AFTER INSERT ON txn REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION webhook_txn_inserted();
CREATE TRIGGER txn_webhook_update AFTER UPDATE OF gw_response ON txn FOR EACH ROW
  WHEN (NEW.tran_type IN ('PURC', 'REFD') AND NEW.gw_response IS NOT NULL AND NEW.gw_response NOT IN ('', '04')
        AND (OLD.gw_response IS NULL OR OLD.gw_response IN ('', '04')))
  EXECUTE FUNCTION webhook_txn_final();

-- A pay-by-link order paid, closed by the merchant or expired; an in-store order paid.
CREATE FUNCTION webhook_order_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE kind text;
BEGIN
  IF NEW.status = '00' AND OLD.status <> '00' THEN
    kind := CASE WHEN NEW.prod_category = 'payinstore' THEN 'instore.paid' ELSE 'paylink.paid' END;
  ELSIF NEW.prod_category <> 'payinstore' AND NEW.open_status = '01' AND OLD.open_status <> '01' AND NEW.close_reason = 'merchant' THEN
    kind := 'paylink.closed';
  ELSIF NEW.prod_category <> 'payinstore' AND NEW.open_status = '01' AND OLD.open_status <> '01' AND NEW.close_reason = 'expired' THEN
    kind := 'paylink.expired';
  ELSE
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(NEW.mer_id, kind, jsonb_build_object(
    'orderNo', NEW.order_no, 'merId', NEW.mer_id, 'invoiceId', NEW.recon_id, 'storeId', NEW.store_id,
    'amount', NEW.total_amount, 'currency', NEW.order_currency, 'goodsName', NEW.goods_name,
    'paidAt', NEW.paid_at, 'closedAt', NEW.closed_at, 'expiresAt', NEW.expires_at,
    'transactionId', (SELECT k.gw_trans_id FROM txn_key k WHERE k.id = NEW.txn_id)));
  RETURN NULL;
END $$;

CREATE TRIGGER pay_by_link_order_webhook AFTER UPDATE OF status, open_status ON pay_by_link_order FOR EACH ROW
  EXECUTE FUNCTION webhook_order_change();

-- The settlement run's transfer of a (merchant, business line, currency): settlement.transferred.
CREATE FUNCTION webhook_settlement_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.mer_id, 'settlement.transferred', jsonb_build_object(
    'merId', NEW.mer_id, 'settlementDate', NEW.txn_set_date, 'businessLine', NEW.bus_line, 'currency', NEW.set_cur,
    'amount', NEW.real_trans_before_fee, 'fee', NEW.tran_fee, 'netAmount', NEW.real_trans_amount, 'remitDate', NEW.remit_date));
  RETURN NULL;
END $$;

CREATE TRIGGER settlement_webhook AFTER INSERT ON settlement FOR EACH ROW
  WHEN (NEW.trans_amount > 0)
  EXECUTE FUNCTION webhook_settlement_transfer();

-- A reserve released (on its release day, or at once when the hold is 0 days): reserve.released.
CREATE FUNCTION webhook_reserve_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.mer_id, 'reserve.released', jsonb_build_object(
    'merId', NEW.mer_id, 'businessLine', NEW.bus_line, 'currency', NEW.set_cur, 'amount', NEW.amount,
    'heldOn', NEW.txn_set_date, 'releaseDate', NEW.release_date, 'transferDate', NEW.transfer_date));
  RETURN NULL;
END $$;

CREATE TRIGGER reserve_webhook_insert AFTER INSERT ON reserve FOR EACH ROW
  WHEN (NEW.released AND NEW.amount > 0)
  EXECUTE FUNCTION webhook_reserve_release();
CREATE TRIGGER reserve_webhook_update AFTER UPDATE OF released ON reserve FOR EACH ROW
  WHEN (NEW.released AND NOT OLD.released AND NEW.amount > 0)
  EXECUTE FUNCTION webhook_reserve_release();

-- Merchant administrators hold every permission: the new one too.
UPDATE app_user SET permissions = array_append(permissions, 'developer:manage')
 WHERE user_admin AND NOT ('developer:manage' = ANY(permissions));
