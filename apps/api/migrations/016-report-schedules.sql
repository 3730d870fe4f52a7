-- Scheduled reports (issue 13, decision 023): a report or the transaction list, with its filters,
-- e-mailed as CSV/XLSX daily, weekly or monthly at a wall-clock time in an IANA zone. Each schedule
-- has one recurring row in `job` (unique_key 'report-schedule:<id>') whose run_at is next_run_at;
-- each run is an export_file row (schedule_id set), so it shows in the file report.
CREATE TABLE report_schedule (
  id            serial PRIMARY KEY,
  user_id       int NOT NULL REFERENCES app_user(id),
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  kind          text NOT NULL,
  params        jsonb NOT NULL DEFAULT '{}',
  format        text NOT NULL CHECK (format IN ('xlsx', 'csv')),
  frequency     text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  time_of_day   text NOT NULL CHECK (time_of_day ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  weekday       smallint CHECK (weekday BETWEEN 1 AND 7),
  month_day     smallint CHECK (month_day BETWEEN 1 AND 31),
  time_zone     text NOT NULL,
  recipients    text[] NOT NULL,
  scope         text[] NOT NULL,               -- merchant ids of the creating session
  lang          text NOT NULL DEFAULT 'en',
  paused        boolean NOT NULL DEFAULT false,
  next_run_at   timestamptz,
  last_run_at   timestamptz,
  last_result   text CHECK (last_result IN ('sent', 'failed')),
  last_error    text,
  last_file_id  bigint,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE INDEX report_schedule_user_idx ON report_schedule (user_id, id) WHERE deleted_at IS NULL;

ALTER TABLE export_file ADD COLUMN schedule_id int REFERENCES report_schedule(id);
