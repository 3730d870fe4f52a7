-- Issue 46: /metrics counts the webhook deliveries given up within the last hour at every scrape
-- (portal_webhook_deliveries_failed_1h): a small partial index over the failed ones keeps that cheap
-- however many deliveries succeeded.
CREATE INDEX webhook_delivery_failed_idx ON webhook_delivery (last_attempt_at) WHERE state = 'failed';
