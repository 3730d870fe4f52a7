-- Issue 45 §3, decision 079: one public transaction shape. From Portal-Version 2026-12-03 the
-- transaction in a transaction.* or refund.* event is the /v1 Transaction (or Refund) object, made
-- by the same TypeScript mapper as GET /v1/transactions/{id} (txn.public.ts toV1Transaction), from
-- the row as it was when the event happened: the payload keeps the columns that mapper reads under
-- "_row" (never sent as such: the renderer strips "_" names from the old shape). Older versions
-- keep the payload they always had, byte for byte.
-- The columns toV1Transaction reads (txn.row.ts TxnDbRow), as the row holds them.
CREATE FUNCTION webhook_txn_row(t txn) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.id, 'gw_trans_id', t.gw_trans_id, 'mer_id', t.mer_id, 'order_no', t.order_no,
    'origin_order_no', t.origin_order_no, 'origin_txn_id', t.origin_txn_id, 'tran_type', t.tran_type,
    'gw_response', t.gw_response, 'resp_msg', t.resp_msg, 'amount', t.amount, 'amount_sign', t.amount_sign,
    'currency', t.currency, 'return_amount', t.return_amount, 'payment_schema', t.payment_schema,
    'payment_brand', t.payment_brand, 'mer_reserve', t.mer_reserve, 'txn_time', t.txn_time,
    'settle_flag', t.settle_flag, 'settle_date', t.settle_date, 'settle_currency', t.settle_currency,
    'settle_amount', t.settle_amount, 'settle_fee', t.settle_fee)
$$;

CREATE OR REPLACE FUNCTION webhook_txn_data(t txn) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.gw_trans_id, 'merId', t.mer_id, 'orderNo', t.order_no, 'type', t.tran_type,
    'amount', t.amount, 'currency', t.currency, 'channel', t.payment_schema, 'brand', t.payment_brand,
    'gwResponse', t.gw_response, 'respMsg', t.resp_msg, 'time', t.txn_time,
    'originalOrderNo', t.origin_order_no, 'storeId', t.store_id,
    'metadata', coalesce((SELECT m.metadata FROM txn_metadata m WHERE m.txn_id = t.id), '{}'::jsonb),
    '_id', t.id,
    '_row', webhook_txn_row(t))
$$;

-- The events already recorded (30 days are kept) get the row as it is now (the closest there is).
UPDATE webhook_event e SET data = e.data || jsonb_build_object('_row', webhook_txn_row(t))
  FROM txn_key k JOIN txn t ON t.id = k.id AND t.txn_time = k.txn_time
 WHERE (e.type LIKE 'transaction.%' OR e.type LIKE 'refund.%') AND k.id = (e.data->>'_id')::bigint AND k.mer_id = e.mer_id;
