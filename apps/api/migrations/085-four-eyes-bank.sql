-- Four eyes on bank-account change requests (issue 28, decision 049). When a merchant's policy
-- turns on `bank_change`, a change request first waits for a second merchant user's approval
-- (status MERCHANT_APPROVAL, invisible to the provider's back office); approved, it becomes PENDING
-- (the provider's approval, decision 038); rejected or expired, it is closed as such.
ALTER TABLE four_eyes_policy ADD COLUMN bank_change boolean NOT NULL DEFAULT false;

ALTER TABLE approval_request DROP CONSTRAINT approval_request_kind_check;
ALTER TABLE approval_request ADD CONSTRAINT approval_request_kind_check CHECK (kind IN ('refund', 'permission_raise', 'bank_change'));

ALTER TABLE bank_change_request DROP CONSTRAINT bank_change_request_status_check;
ALTER TABLE bank_change_request ADD CONSTRAINT bank_change_request_status_check
  CHECK (status IN ('MERCHANT_APPROVAL', 'MERCHANT_REJECTED', 'EXPIRED', 'PENDING', 'APPROVED', 'REJECTED'));
-- The merchant's approval request that holds it (NULL: submitted without four eyes).
ALTER TABLE bank_change_request ADD COLUMN approval_id int REFERENCES approval_request(id);

-- Still at most one open request per merchant: one waiting for the merchant's approval counts.
DROP INDEX bank_change_request_pending_uq;
CREATE UNIQUE INDEX bank_change_request_pending_uq ON bank_change_request (mer_id) WHERE status IN ('PENDING', 'MERCHANT_APPROVAL');
