-- Four eyes (issue 28, decision 041): a merchant's administrators say which actions need a second
-- user's approval; such an action waits as an approval request until approved (executed once),
-- rejected or expired.
CREATE TABLE four_eyes_policy (
  mer_id           varchar(15) PRIMARY KEY REFERENCES merchant(mer_id),
  -- Refunds above these amounts need approval: {"USD": 100000} in minor units of each currency.
  refund_limits    jsonb NOT NULL DEFAULT '{}',
  -- Changes raising a user's permissions (a user's edit, a named role's change) need approval.
  permission_raise boolean NOT NULL DEFAULT false,
  expiry_hours     int NOT NULL DEFAULT 48 CHECK (expiry_hours BETWEEN 1 AND 720),
  updated_by       int REFERENCES app_user(id),
  updated_at       timestamptz NOT NULL
);

CREATE TABLE approval_request (
  id            serial PRIMARY KEY,
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  kind          text NOT NULL CHECK (kind IN ('refund', 'permission_raise')),
  -- The permission an approver must hold (refund: txn:detail:refund; permission raise: merchant:user:manage).
  permission    text NOT NULL,
  status        text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED')),
  -- The action as asked (executed by the approval); summary: what the list shows.
  payload       jsonb NOT NULL,
  summary       jsonb NOT NULL,
  requested_by  int NOT NULL REFERENCES app_user(id),
  requested_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  decided_by    int REFERENCES app_user(id),
  decided_at    timestamptz,
  note          text,
  -- The executed action's answer; notified_at: when the approvers' e-mail went (recorded after sending).
  result        jsonb,
  notified_at   timestamptz
);
CREATE INDEX approval_request_mer_idx ON approval_request (mer_id, requested_at DESC, id DESC);
CREATE INDEX approval_request_pending_idx ON approval_request (expires_at) WHERE status = 'PENDING';
