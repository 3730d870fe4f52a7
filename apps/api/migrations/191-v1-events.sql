-- Events to pull (issue 50; decision 063). GET /v1/events lists a merchant's events of the last 30
-- days — the very objects the webhooks deliver — so they are now recorded for every merchant that
-- uses the API or webhooks (an endpoint, in any state, or an API key not revoked naming it), not
-- only when an enabled endpoint wants the type; deliveries are still made only for the endpoints
-- that want it. An endpoint may want every event: events = '{*}'. The events.purge job deletes
-- events (with their deliveries and attempts) older than 30 days.
CREATE FUNCTION webhook_records(p_mer text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM webhook_endpoint WHERE mer_id = p_mer)
      OR EXISTS (SELECT 1 FROM api_key WHERE p_mer = ANY(mer_ids) AND revoked_at IS NULL)
$$;

CREATE OR REPLACE FUNCTION webhook_emit(p_mer text, p_type text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE ev bigint;
BEGIN
  IF NOT webhook_records(p_mer) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_event (mer_id, type, data) VALUES (p_mer, p_type, p_data) RETURNING id INTO ev;
  INSERT INTO webhook_delivery (event_id, endpoint_id, mer_id, next_attempt_at, give_up_at)
    SELECT ev, e.id, e.mer_id, clock_timestamp(), clock_timestamp() + interval '3 days'
      FROM webhook_endpoint e WHERE e.mer_id = p_mer AND e.enabled AND (p_type = ANY(e.events) OR '*' = ANY(e.events));
END $$;

-- Bulk inserts: still one probe per statement when no merchant uses the API or webhooks.
CREATE OR REPLACE FUNCTION webhook_txn_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoint) AND NOT EXISTS (SELECT 1 FROM api_key WHERE revoked_at IS NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(n.mer_id, webhook_txn_type(n), webhook_txn_data(n))
     FROM (SELECT * FROM new_rows ORDER BY id) n
    WHERE n.tran_type IN ('PURC', 'REFD') AND n.gw_response IS NOT NULL AND n.gw_response NOT IN ('', '04')
      AND webhook_records(n.mer_id);
  RETURN NULL;
END $$;

-- GET /v1/events pages a merchant's events newest first by id.
CREATE INDEX webhook_event_mer_id_idx ON webhook_event (mer_id, id DESC);
CREATE INDEX webhook_event_created_idx ON webhook_event (created_at);
CREATE INDEX webhook_delivery_event_idx ON webhook_delivery (event_id);

-- Standard Webhooks (issue 50): the signature scheme of an endpoint, chosen at creation —
-- 'stripe' (Portal-Signature: t=…,v1=<hex>; the default) or 'standard' (webhook-id,
-- webhook-timestamp, webhook-signature: v1,<base64>; the secret's part after whsec_ is base64).
ALTER TABLE webhook_endpoint ADD COLUMN signature_scheme text NOT NULL DEFAULT 'stripe' CHECK (signature_scheme IN ('stripe', 'standard'));
