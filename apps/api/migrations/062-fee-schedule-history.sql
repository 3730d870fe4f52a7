-- Fee schedules with an effective date (issue 26, decision 038): every schedule a merchant's business
-- line ever had or will have, from its day on. merchant_fee stays the schedule in force (and the
-- settlement cursor): the settlement run of day D first puts the schedule in force on D there.
CREATE TABLE merchant_fee_schedule (
  id                bigserial PRIMARY KEY,
  mer_id            varchar(15) NOT NULL REFERENCES merchant(mer_id),
  bus_line          text NOT NULL,
  effective_from    date NOT NULL,
  mdr_bp            int NOT NULL CHECK (mdr_bp BETWEEN 0 AND 10000),
  fixed_fee         bigint NOT NULL CHECK (fixed_fee >= 0),
  cycle_days        int NOT NULL CHECK (cycle_days BETWEEN 0 AND 60),
  reserve_bp        int NOT NULL CHECK (reserve_bp BETWEEN 0 AND 10000),
  reserve_hold_days int NOT NULL CHECK (reserve_hold_days BETWEEN 0 AND 720),
  tran_threshold    bigint NOT NULL CHECK (tran_threshold >= 0),
  tran_fee          bigint NOT NULL CHECK (tran_fee >= 0),
  transfer_period   text NOT NULL CHECK (transfer_period ~ '^(D|W[1-7]|M([1-9]|1[0-9]|2[0-8]))$'),
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by_operator int REFERENCES ops_operator(id),
  UNIQUE (mer_id, bus_line, effective_from)
);
