-- Issue 49 §2: bank statements imported by a merchant (camt.053, MT940, CSV) and their entries
-- matched to the merchant's transfers (the settlement rows with a transfer: trans_amount > 0).

-- One row per statement read from a file (a camt.053 or MT940 file may carry several).
CREATE TABLE bank_statement (
  id              bigserial PRIMARY KEY,
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  format          text NOT NULL CHECK (format IN ('camt053', 'mt940', 'csv')),
  -- The bank's statement id (camt Stmt/Id, MT940 :20:/:28C:); CSV: 'csv:' and the content hash.
  stmt_ref        text NOT NULL,
  account         text NOT NULL,
  currency        char(3) NOT NULL,
  from_date       date,
  to_date         date,
  opening_minor   bigint,
  closing_minor   bigint,
  -- The statement's content (account, currency, balances, entries) hashed: the same statement
  -- uploaded again adds nothing; the same id with other content is refused.
  content_hash    text NOT NULL,
  -- Null when opening + entries = closing; else why not, accepted by the uploader (audited).
  balance_note    jsonb,
  file_name       text NOT NULL,
  entry_count     int NOT NULL,
  added_count     int NOT NULL,
  uploaded_by     bigint,
  uploaded_name   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mer_id, account, stmt_ref)
);
CREATE INDEX bank_statement_mer_idx ON bank_statement (mer_id, created_at DESC, id DESC);

-- The entries: one row per bank entry, whichever statements carried it (overlapping statements
-- add an entry once: its fingerprint is the bank's reference or its figures).
CREATE TABLE bank_entry (
  id              bigserial PRIMARY KEY,
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  statement_id    bigint NOT NULL REFERENCES bank_statement(id),
  account         text NOT NULL,
  fingerprint     text NOT NULL,
  booking_date    date NOT NULL,
  value_date      date,
  amount_minor    bigint NOT NULL,        -- signed: credits > 0
  currency        char(3) NOT NULL,
  reference       text,
  bank_ref        text,
  counterparty    text,
  description     text,
  reversal        boolean NOT NULL DEFAULT false,
  UNIQUE (mer_id, account, fingerprint)
);
CREATE INDEX bank_entry_credit_idx ON bank_entry (mer_id, booking_date) WHERE amount_minor > 0;
CREATE INDEX bank_entry_statement_idx ON bank_entry (statement_id);

-- A match: bank credits ↔ transfers (one to one, a bank fee deducted, many transfers in one
-- credit, one transfer split over credits). Proposed by the matcher, confirmed by a person.
CREATE TABLE bank_match (
  id              bigserial PRIMARY KEY,
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  kind            text NOT NULL CHECK (kind IN ('exact', 'fee', 'batch', 'split', 'manual')),
  state           text NOT NULL CHECK (state IN ('proposed', 'confirmed')),
  currency        char(3) NOT NULL,
  credit_minor    bigint NOT NULL,        -- Σ credits
  transfer_minor  bigint NOT NULL,        -- Σ transfers' amounts sent
  fee_minor       bigint NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),  -- transfer − credit, a bank fee
  by_reference    boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  confirmed_at    timestamptz,
  confirmed_by    text
);
CREATE INDEX bank_match_mer_idx ON bank_match (mer_id, state);

-- An entry or a transfer belongs to at most one match.
CREATE TABLE bank_match_entry (
  match_id        bigint NOT NULL REFERENCES bank_match(id) ON DELETE CASCADE,
  entry_id        bigint NOT NULL UNIQUE REFERENCES bank_entry(id)
);
CREATE INDEX bank_match_entry_match_idx ON bank_match_entry (match_id);
CREATE TABLE bank_match_transfer (
  match_id        bigint NOT NULL REFERENCES bank_match(id) ON DELETE CASCADE,
  mer_id          varchar(15) NOT NULL,
  bus_line        text NOT NULL,
  set_cur         char(3) NOT NULL,
  txn_set_date    date NOT NULL,
  UNIQUE (mer_id, bus_line, set_cur, txn_set_date)
);
CREATE INDEX bank_match_transfer_match_idx ON bank_match_transfer (match_id);

-- Proposals a person dismissed: the matcher does not propose the same pairing again.
CREATE TABLE bank_match_dismissed (
  mer_id          varchar(15) NOT NULL,
  signature       text NOT NULL,
  dismissed_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (mer_id, signature)
);

-- The merchant's CSV column mapping (one per merchant, saved from the upload dialog).
CREATE TABLE bank_csv_mapping (
  mer_id          varchar(15) PRIMARY KEY REFERENCES merchant(mer_id),
  mapping         jsonb NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      text
);

-- The merchants' main users hold the new permission (as every permission); sub-users are granted it by them.
UPDATE app_user SET permissions = array_append(permissions, 'bank:statement')
 WHERE user_type = 'MAIN' AND NOT ('bank:statement' = ANY(permissions));
