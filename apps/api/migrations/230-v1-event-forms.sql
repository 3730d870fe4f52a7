-- Issue 50: one id form and one time format per object across /v1 and the webhooks (decision 075).
--
-- From Portal-Version 2026-12-03 an event's data names each object by its /v1 id (a transaction's,
-- an order's, a settlement's) and writes every time as ISO-8601 UTC, as the /v1 objects do; older
-- versions keep the payload they always had. The version is the endpoint's, pinned at its creation
-- (an endpoint made through /v1: the key's or the request's; the portal's screen: 2026-12-01 until it
-- offers the choice), and the request's for GET /v1/events.
ALTER TABLE webhook_endpoint ADD COLUMN api_version text NOT NULL DEFAULT '2026-12-01';

-- The payloads keep what the old versions send and add the /v1 ids under "_" names (never sent as
-- such: the renderer strips them from the old shape and uses them in the new one).
CREATE OR REPLACE FUNCTION webhook_txn_data(t txn) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.gw_trans_id, 'merId', t.mer_id, 'orderNo', t.order_no, 'type', t.tran_type,
    'amount', t.amount, 'currency', t.currency, 'channel', t.payment_schema, 'brand', t.payment_brand,
    'gwResponse', t.gw_response, 'respMsg', t.resp_msg, 'time', t.txn_time,
    'originalOrderNo', t.origin_order_no, 'storeId', t.store_id,
    'metadata', coalesce((SELECT m.metadata FROM txn_metadata m WHERE m.txn_id = t.id), '{}'::jsonb),
    '_id', t.id)
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
    'metadata', NEW.metadata,
    '_id', NEW.id, '_transactionId', NEW.txn_id));
  RETURN NULL;
END $$;

-- The events already recorded (30 days are kept) get their ids too.
UPDATE webhook_event e SET data = e.data || jsonb_build_object('_id', k.id)
  FROM txn_key k
 WHERE (e.type LIKE 'transaction.%' OR e.type LIKE 'refund.%') AND k.gw_trans_id = e.data->>'id' AND k.mer_id = e.mer_id;
UPDATE webhook_event e SET data = e.data || jsonb_build_object('_id', o.id, '_transactionId', o.txn_id)
  FROM pay_by_link_order o
 WHERE (e.type LIKE 'paylink.%' OR e.type = 'instore.paid') AND o.order_no = e.data->>'orderNo' AND o.mer_id = e.mer_id;
