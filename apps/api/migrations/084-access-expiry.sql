-- Access that expires (issue 28 item 3, decision 048): users not signed in for N days are disabled
-- by a daily job (a warning e-mail a week before), a grant can end on a date, and a merchant's
-- administrators review their users' access each quarter.

-- The language of the user's e-mails (the adder's at creation, then the user's own at each sign-in).
ALTER TABLE app_user ADD COLUMN lang text CHECK (lang IS NULL OR lang IN ('en', 'zh', 'ko', 'ja'));
-- The last day of the user's access (a date in the platform zone); the job disables it after that day.
ALTER TABLE app_user ADD COLUMN access_ends_on date;
-- When an administrator last enabled the user: inactivity counts from here too (else an enabled
-- user not yet signed in again would be disabled by the next run).
ALTER TABLE app_user ADD COLUMN access_renewed_at timestamptz;

-- A merchant's inactivity limit (its administrators'; a sub-merchant without one follows its group's).
CREATE TABLE access_policy (
  mer_id        varchar(15) PRIMARY KEY REFERENCES merchant(mer_id),
  inactive_days int NOT NULL DEFAULT 90 CHECK (inactive_days BETWEEN 14 AND 90),
  updated_by    int REFERENCES app_user(id),
  updated_at    timestamptz NOT NULL
);

-- The warnings owed to users, recorded in the job's transaction (one per user and inactivity period:
-- period_from is when the user's inactivity began), sent after COMMIT by a job of their own, retried.
CREATE TABLE access_notice (
  id          serial PRIMARY KEY,
  user_id     int NOT NULL REFERENCES app_user(id),
  kind        text NOT NULL CHECK (kind IN ('inactivity_warning', 'last_admin_kept')),
  period_from timestamptz NOT NULL,
  disable_at  timestamptz NOT NULL,
  lang        text NOT NULL,
  time_zone   text NOT NULL,
  created_at  timestamptz NOT NULL,
  sent_at     timestamptz,
  attempts    int NOT NULL DEFAULT 0,
  last_error  text,
  UNIQUE (user_id, kind, period_from)
);

-- One row per platform day the access job completed (its result, for operators).
CREATE TABLE access_run (
  day     date PRIMARY KEY,
  ran_at  timestamptz NOT NULL,
  result  jsonb NOT NULL
);

-- Quarterly access reviews: one open review per merchant at a time; each decision kept with what
-- the user had when it was taken.
CREATE TABLE access_review (
  id           serial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  quarter      text NOT NULL CHECK (quarter ~ '^\d{4}-Q[1-4]$'),
  started_by   int NOT NULL REFERENCES app_user(id),
  started_at   timestamptz NOT NULL,
  completed_by int REFERENCES app_user(id),
  completed_at timestamptz
);
CREATE UNIQUE INDEX access_review_open_idx ON access_review (mer_id) WHERE completed_at IS NULL;
CREATE INDEX access_review_mer_idx ON access_review (mer_id, started_at DESC);

CREATE TABLE access_review_item (
  review_id  int NOT NULL REFERENCES access_review(id),
  user_id    int NOT NULL REFERENCES app_user(id),
  username   text NOT NULL,
  decision   text NOT NULL CHECK (decision IN ('CONFIRMED', 'DISABLED', 'REMOVED')),
  snapshot   jsonb NOT NULL,
  decided_by int NOT NULL REFERENCES app_user(id),
  decided_at timestamptz NOT NULL,
  PRIMARY KEY (review_id, user_id)
);
