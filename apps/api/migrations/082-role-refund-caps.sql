-- Limits inside a named role (issue 28, decision 041): refund caps per currency, per refund and per
-- user per day (platform-zone day), in minor units: {"USD": {"perRefund": 100000, "perDay": 500000}}.
ALTER TABLE team_role ADD COLUMN refund_caps jsonb NOT NULL DEFAULT '{}';

-- What each user has refunded per currency and day against its role's daily cap, claimed by one
-- guarded upsert in the refund's transaction (parallel refunds never pass the cap together).
CREATE TABLE refund_cap_usage (
  user_id   int NOT NULL REFERENCES app_user(id),
  currency  char(3) NOT NULL,
  day       date NOT NULL,
  amount    bigint NOT NULL,
  PRIMARY KEY (user_id, currency, day)
);
