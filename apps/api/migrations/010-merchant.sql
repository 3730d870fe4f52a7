-- Merchant detail, bank-account change requests, documents published to merchants (/files).

-- Fee schedule validity: when a schedule took effect and, once replaced, until when.
ALTER TABLE merchant_fee ADD COLUMN effective_from date;
ALTER TABLE merchant_fee ADD COLUMN effective_to date;
UPDATE merchant_fee f SET effective_from = m.application_date FROM merchant m WHERE m.mer_id = f.mer_id AND f.effective_from IS NULL;

-- A bank-account change is a request, approved by the provider's back office (CLI approve bank-request N).
CREATE TABLE bank_change_request (
  id                serial PRIMARY KEY,
  mer_id            varchar(15) NOT NULL REFERENCES merchant(mer_id),
  account_id        int REFERENCES merchant_bank_account(id),   -- replaced account; NULL = a new one
  beneficiary_bank  text NOT NULL,
  swift_code        text NOT NULL,
  bank_address      text,
  account_name      text NOT NULL,
  account_number    text NOT NULL,
  country           char(2) NOT NULL,
  currency          char(3) NOT NULL,
  document_name     text NOT NULL,
  document_path     text NOT NULL,                               -- under DATA_DIR/files
  document_size     int NOT NULL,
  status            text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  requested_by      int NOT NULL REFERENCES app_user(id),
  requested_at      timestamptz NOT NULL DEFAULT now(),
  decided_at        timestamptz,
  decided_by        text
);
-- At most one pending request per merchant (a second concurrent submit fails on this index).
CREATE UNIQUE INDEX bank_change_request_pending_uq ON bank_change_request (mer_id) WHERE status = 'PENDING';

-- Documents the provider publishes to a merchant: monthly statements (PDF + CSV), fee schedules.
CREATE TABLE merchant_document (
  id           bigserial PRIMARY KEY,
  mer_id       varchar(15) NOT NULL REFERENCES merchant(mer_id),
  kind         text NOT NULL CHECK (kind IN ('MONTHLY_STATEMENT', 'FEE_SCHEDULE')),
  period       text NOT NULL,                    -- 'YYYY-MM' for statements, 'YYYY-MM-DD' for a schedule
  currency     char(3),
  lang         text NOT NULL DEFAULT 'en',
  format       text NOT NULL CHECK (format IN ('pdf', 'csv')),
  file_name    text NOT NULL,
  file_path    text NOT NULL,
  size_bytes   int NOT NULL,
  data         jsonb NOT NULL DEFAULT '{}',       -- the statement's figures (minor units)
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mer_id, kind, period, currency, lang, format)
);
CREATE INDEX merchant_document_mer_idx ON merchant_document (mer_id, created_at DESC);
