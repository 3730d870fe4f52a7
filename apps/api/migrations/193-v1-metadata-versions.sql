-- Issue 50 (round two): metadata on refunds, pay links and in-store orders, and API versions.
--
-- metadata: up to 50 string keys (key at most 40 characters, value at most 500) a merchant attaches
-- through /v1 and reads back in the objects, in /v1/events and in the webhooks' payloads. Pay-by-link
-- and in-store orders keep it on their row; a refund (a row of the ledger, partitioned by time) keeps
-- it beside it in txn_metadata, one row per refund that has any.
ALTER TABLE pay_by_link_order ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE txn_metadata (
  txn_id    bigint PRIMARY KEY,
  mer_id    varchar(15) NOT NULL REFERENCES merchant(mer_id),
  metadata  jsonb NOT NULL
);

-- The version of the API a key answers in (Portal-Version, a date), pinned at the key's creation;
-- a request's Portal-Version header overrides it for that call. Keys made before versions existed
-- answer in the first one.
ALTER TABLE api_key ADD COLUMN api_version text NOT NULL DEFAULT '2026-06-01';

-- The webhooks' payloads (and so /v1/events) carry the metadata.
CREATE OR REPLACE FUNCTION webhook_txn_data(t txn) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.gw_trans_id, 'merId', t.mer_id, 'orderNo', t.order_no, 'type', t.tran_type,
    'amount', t.amount, 'currency', t.currency, 'channel', t.payment_schema, 'brand', t.payment_brand,
    'gwResponse', t.gw_response, 'respMsg', t.resp_msg, 'time', t.txn_time,
    'originalOrderNo', t.origin_order_no, 'storeId', t.store_id,
    'metadata', coalesce((SELECT m.metadata FROM txn_metadata m WHERE m.txn_id = t.id), '{}'::jsonb))
$$;

CREATE OR REPLACE FUNCTION webhook_order_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
    'transactionId', (SELECT k.gw_trans_id FROM txn_key k WHERE k.id = NEW.txn_id),
    'metadata', NEW.metadata));
  RETURN NULL;
END $$;
