-- Issue 46: the reconciliation also lists what the portal itself did towards a gateway — a
-- merchant's refund, a void, a pay-link or in-store charge (an acquirer_operation, whichever adapter
-- answered it) — that the connection never reported for that day: kind 'unreported'. (A production
-- server left on the sandbox answered refunds "Approved" that no gateway ever saw, and nothing said so.)
ALTER TABLE recon_difference DROP CONSTRAINT recon_difference_kind_check;
ALTER TABLE recon_difference ADD CONSTRAINT recon_difference_kind_check
  CHECK (kind IN ('missing', 'extra', 'amount', 'status', 'total', 'unreported'));
