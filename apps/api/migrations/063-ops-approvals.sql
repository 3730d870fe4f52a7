-- Bank-account change approvals in the back office (issue 26, decision 038): the reason of the
-- decision, the operator who decided, and the operator who last changed the request (four eyes: the
-- operator who approves is not the one who changed it).
ALTER TABLE bank_change_request ADD COLUMN decision_reason text CHECK (decision_reason IS NULL OR length(decision_reason) <= 500);
ALTER TABLE bank_change_request ADD COLUMN decided_by_operator int REFERENCES ops_operator(id);
ALTER TABLE bank_change_request ADD COLUMN changed_by_operator int REFERENCES ops_operator(id);
ALTER TABLE bank_change_request ADD COLUMN changed_at timestamptz;
