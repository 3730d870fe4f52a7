-- Payment core: fee schedules, bank accounts, FX rates, the transaction ledger, settlement output.
-- Amounts are integer minor units of the currency named beside them (ISO 4217 exponent).

CREATE TABLE merchant_fee (
  mer_id            varchar(15) NOT NULL REFERENCES merchant(mer_id),
  bus_line          text NOT NULL,                          -- UP, AP, WX, CARD, PPRO …
  mdr_bp            int NOT NULL DEFAULT 250 CHECK (mdr_bp BETWEEN 0 AND 10000),
  fixed_fee         bigint NOT NULL DEFAULT 0 CHECK (fixed_fee >= 0),   -- settlement currency minor units
  cycle_days        int NOT NULL DEFAULT 1 CHECK (cycle_days BETWEEN 0 AND 60),  -- T+N
  reserve_bp        int NOT NULL DEFAULT 0 CHECK (reserve_bp BETWEEN 0 AND 10000),
  reserve_hold_days int NOT NULL DEFAULT 0 CHECK (reserve_hold_days BETWEEN 0 AND 720),
  tran_threshold    bigint NOT NULL DEFAULT 0 CHECK (tran_threshold >= 0),
  tran_fee          bigint NOT NULL DEFAULT 0 CHECK (tran_fee >= 0),
  -- D daily; W1..W7 weekly on ISO weekday (1 = Monday); M1..M28 monthly on that day
  transfer_period   text NOT NULL DEFAULT 'D' CHECK (transfer_period ~ '^(D|W[1-7]|M([1-9]|1[0-9]|2[0-8]))$'),
  PRIMARY KEY (mer_id, bus_line)
);

CREATE TABLE merchant_bank_account (
  id                serial PRIMARY KEY,
  mer_id            varchar(15) NOT NULL REFERENCES merchant(mer_id),
  beneficiary_bank  text NOT NULL,
  swift_code        text NOT NULL,
  bank_address      text,
  account_name      text NOT NULL,
  account_number    text NOT NULL,
  country           char(2) NOT NULL,
  currency          char(3) NOT NULL,
  is_default        boolean NOT NULL DEFAULT true
);
CREATE INDEX merchant_bank_account_mer_idx ON merchant_bank_account(mer_id);

-- Rate of 1 unit of from_cur in to_cur (major units), for a date.
CREATE TABLE fx_rate (
  rate_date  date NOT NULL,
  from_cur   char(3) NOT NULL,
  to_cur     char(3) NOT NULL,
  rate       numeric(24, 12) NOT NULL CHECK (rate > 0),
  PRIMARY KEY (rate_date, from_cur, to_cur)
);

-- The ledger: written once through the ingestion function, then only its settlement fields and
-- return_amount change.
CREATE TABLE txn (
  id                 bigserial PRIMARY KEY,
  gw_trans_id        text NOT NULL UNIQUE,                 -- gateway transaction id (gwGTransId)
  mer_id             varchar(15) NOT NULL REFERENCES merchant(mer_id),
  order_no           text NOT NULL,                        -- merchant order number (mrequest.orderno)
  origin_order_no    text,                                 -- original order number (refund/void → purchase)
  origin_txn_id      bigint REFERENCES txn(id),
  channel_order_no   text,                                 -- the channel's own order number
  tran_type          text NOT NULL CHECK (tran_type IN ('PURC','REFD','VOID','MANENTD','PAUT','DISPUTE','DECL','FREEZE','UNFREEZE','PROFIT_INCOME','PROFIT_OUTGO','FEE_COLLECTION')),
  gw_response        text,                                 -- '00' success, '04'/NULL processing, other failed
  resp_msg           text,
  amount             bigint NOT NULL CHECK (amount > 0),   -- gwAmount, minor units of currency (MANENTD sign in amount_sign)
  amount_sign        smallint NOT NULL DEFAULT 1 CHECK (amount_sign IN (-1, 1)),  -- MANENTD may be negative
  currency           char(3) NOT NULL,                     -- gwCurrency
  order_amount       bigint NOT NULL,                      -- mrequest.orderAmount
  order_currency     char(3) NOT NULL,
  return_amount      bigint NOT NULL DEFAULT 0 CHECK (return_amount >= 0 AND return_amount <= amount),
  payment_schema     text NOT NULL,                        -- channel
  bus_line           text NOT NULL,                        -- business line (channel group)
  payment_brand      text,
  sub_brand_code     text,
  txn_time           timestamptz NOT NULL,                 -- currentTime
  txn_date           date NOT NULL,                        -- txn_time's date in the platform zone
  mer_reserve        text,
  store_name         text,
  store_id           text,
  back_url           text,
  front_url          text,
  card_first6        char(6),
  card_last4         char(4),
  version            text NOT NULL DEFAULT '1.0',
  source             text NOT NULL DEFAULT 'gateway',      -- gateway, sandbox, paybylink, generator, manual
  settle_flag        char(1) NOT NULL DEFAULT 'N' CHECK (settle_flag IN ('N','Y','S','T')),
  settle_date        date,
  settle_currency    char(3),
  fx_rate            numeric(24, 12),
  settle_amount      bigint,                               -- signed, settlement currency minor units
  settle_fee         bigint,                               -- MDR fee, settlement currency minor units
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mer_id, order_no)
);
CREATE INDEX txn_mer_time_idx ON txn (mer_id, txn_time DESC, id DESC);
CREATE INDEX txn_origin_idx ON txn (origin_txn_id) WHERE origin_txn_id IS NOT NULL;
CREATE INDEX txn_origin_no_idx ON txn (mer_id, origin_order_no) WHERE origin_order_no IS NOT NULL;
CREATE INDEX txn_channel_order_idx ON txn (channel_order_no) WHERE channel_order_no IS NOT NULL;
CREATE INDEX txn_unsettled_idx ON txn (txn_date, mer_id) WHERE settle_flag = 'N' AND gw_response = '00';
CREATE INDEX txn_settled_idx ON txn (mer_id, bus_line, settle_currency, settle_date) WHERE settle_date IS NOT NULL;

-- One row per (settlement date, merchant, business line, settlement currency): the bill and the
-- transfer/settlement reports read it.
CREATE TABLE settlement (
  txn_set_date        date NOT NULL,
  mer_id              varchar(15) NOT NULL REFERENCES merchant(mer_id),
  bus_line            text NOT NULL,
  set_cur             char(3) NOT NULL,
  txn_count           int NOT NULL,
  recon_set_amount    bigint NOT NULL,     -- Σ signed converted − Σ fees
  fee_amount          bigint NOT NULL,     -- Σ fees
  serv_amount         bigint NOT NULL,     -- reserve held today
  released_amount     bigint NOT NULL,     -- reserve released today
  net_amount          bigint NOT NULL,     -- recon − held + released
  history_pending     bigint NOT NULL,
  total_pending       bigint NOT NULL,
  trans_amount        bigint NOT NULL,     -- transferred today (0 when carried)
  real_trans_before_fee bigint NOT NULL,
  tran_fee            bigint NOT NULL,
  real_trans_amount   bigint NOT NULL,
  tran_threshold      bigint NOT NULL,
  trans_period        text NOT NULL,
  remit_date          date,
  recon_search_date   date NOT NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (mer_id, bus_line, set_cur, txn_set_date)
);
CREATE INDEX settlement_date_idx ON settlement (txn_set_date, mer_id);
CREATE INDEX settlement_remit_idx ON settlement (remit_date) WHERE remit_date IS NOT NULL;

-- Reserve (guarantee deposit) held on a settlement day and released on release_date.
CREATE TABLE reserve (
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  bus_line        text NOT NULL,
  set_cur         char(3) NOT NULL,
  txn_set_date    date NOT NULL,
  amount          bigint NOT NULL CHECK (amount >= 0),
  release_date    date NOT NULL,
  released        boolean NOT NULL DEFAULT false,
  transfer_date   date,                   -- remit date of the transfer the release went into
  PRIMARY KEY (mer_id, bus_line, set_cur, txn_set_date)
);
CREATE INDEX reserve_release_idx ON reserve (release_date, mer_id);

-- The daily summary by payment brand, materialised by the settlement run (per settlement date).
CREATE TABLE settlement_summary (
  txn_set_date    date NOT NULL,
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  acquirer        text NOT NULL,
  payment_brand   text NOT NULL DEFAULT '',  -- '' for M-DEPOSIT rows
  txn_type        text NOT NULL,             -- PURC … FEE_COLLECTION, M-DEPOSIT, M-DEPOSIT-RELEASE
  txn_cur         char(3) NOT NULL,
  set_cur         char(3) NOT NULL,
  txn_count       int NOT NULL,
  txn_amount      bigint NOT NULL,           -- Σ amount, transaction currency
  mdr_amount      bigint NOT NULL,           -- Σ converted amount, settlement currency (merMDRAmount)
  settle_amount   bigint NOT NULL,           -- Σ signed converted, settlement currency
  fee             bigint NOT NULL,
  PRIMARY KEY (mer_id, txn_set_date, payment_brand, txn_type, txn_cur, set_cur, acquirer)
);
CREATE INDEX settlement_summary_date_idx ON settlement_summary (txn_set_date, mer_id);

-- Which settlement dates the run has completed (idempotence, catch-up).
CREATE TABLE settlement_run (
  run_date     date PRIMARY KEY,
  finished_at  timestamptz NOT NULL DEFAULT now(),
  txn_count    int NOT NULL,
  row_count    int NOT NULL
);

CREATE TABLE logistics (
  id            bigserial PRIMARY KEY,
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  order_no      text NOT NULL,
  txn_id        bigint REFERENCES txn(id),
  shipment_no   text NOT NULL,
  company       text NOT NULL,
  ship_date     date NOT NULL,
  status        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mer_id, order_no)
);
