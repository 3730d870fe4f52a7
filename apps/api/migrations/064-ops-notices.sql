-- Notices in the back office (decision 044): who a notice reaches, when, and its withdrawal.
-- A notice written before (or by another module) keeps its meaning: targeted = false, mer_id NULL
-- for every merchant, else that merchant. A targeted notice reaches the merchants of notice_target
-- and, with group_id, that group and its sub-merchants.
ALTER TABLE notice
  ADD COLUMN targeted     boolean NOT NULL DEFAULT false,
  ADD COLUMN group_id     varchar(15) REFERENCES merchant(mer_id),
  ADD COLUMN withdrawn_at timestamptz,
  ADD COLUMN withdrawn_by text,
  ADD COLUMN created_by   text,
  ADD COLUMN created_at   timestamptz,
  ADD COLUMN updated_at   timestamptz;

CREATE TABLE notice_target (
  notice_id int NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
  mer_id    varchar(15) NOT NULL REFERENCES merchant(mer_id),
  PRIMARY KEY (notice_id, mer_id)
);
CREATE INDEX notice_target_mer_idx ON notice_target (mer_id);
