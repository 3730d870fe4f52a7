-- A refund waiting for four eyes is decided (issue 47): the webhook event refund_approval.decided,
-- written by this trigger in the very transaction that records the decision (the outbox, as the
-- events of migration 075). Rejected or expired: when the status leaves PENDING. Approved: when the
-- approved refund's answer is stored on the request (the refund ran after the decision's commit,
-- outside its transaction), so the event names the refund that was made — or why none was.
CREATE FUNCTION webhook_refund_approval() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.mer_id, 'refund_approval.decided', jsonb_build_object(
    'approvalId', NEW.id,
    'status', lower(NEW.status),
    'transactionId', (SELECT k.id FROM txn_key k WHERE k.gw_trans_id = NEW.summary->>'gwTransId'),
    'gatewayId', NEW.summary->>'gwTransId',
    'orderNo', NEW.summary->>'orderNo',
    'amount', NEW.payload->>'amount',
    'currency', NEW.summary->>'currency',
    'refundId', CASE WHEN NEW.status = 'APPROVED' AND (NEW.result->>'code') = '0' THEN (NEW.result->>'refundId')::bigint END,
    'refundCode', CASE WHEN NEW.status = 'APPROVED' THEN (NEW.result->>'code')::int END,
    'requestedAt', NEW.requested_at,
    'decidedAt', COALESCE(NEW.decided_at, clock_timestamp()),
    'expiresAt', NEW.expires_at));
  RETURN NULL;
END $$;

CREATE TRIGGER approval_request_refund_webhook AFTER UPDATE OF status, result ON approval_request FOR EACH ROW
  WHEN (NEW.kind = 'refund' AND (
        (OLD.status = 'PENDING' AND NEW.status IN ('REJECTED', 'EXPIRED'))
     OR (NEW.status = 'APPROVED' AND OLD.result IS NULL AND NEW.result IS NOT NULL)))
  EXECUTE FUNCTION webhook_refund_approval();
