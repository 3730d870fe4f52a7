-- Pay by link: orders a merchant sends to a buyer as a link (/pay/{token}), their attachments
-- (bill files e-mailed to the buyer) and the activity timeline of each order.
-- Amounts are integer minor units of order_currency.

-- An uploaded bill file. file_key is the wire's `attachment`: random and unguessable, but a
-- download still checks that mer_id is in the caller's scope.
CREATE TABLE pay_by_link_attachment (
  id            bigserial PRIMARY KEY,
  file_key      text NOT NULL UNIQUE,
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  uploaded_by   int REFERENCES app_user(id),
  file_name     text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('pdf', 'png', 'jpg', 'xlsx', 'xls', 'csv')),
  content_type  text NOT NULL,
  size_bytes    int NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 5242880),
  sha256        char(64) NOT NULL,
  storage_path  text NOT NULL,               -- relative to DATA_DIR/files
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pay_by_link_attachment_mer_idx ON pay_by_link_attachment (mer_id, created_at DESC);

CREATE SEQUENCE pay_by_link_order_no_seq;

-- status:      '04' awaiting payment (the QR/link can be paid), '00' paid, '01' ended unpaid
--              (closed by the merchant, expired, or the payment failed).
-- open_status: '02' open, '00' payment processing (the acquirer answered pending), '01' closed.
-- The screen's label: Paid when status '00'; Payment processing when open_status '00'; Closed
-- when open_status '01'; otherwise Not paid (spec §4). Every change of these two columns is one
-- conditional UPDATE (… WHERE status = '04' AND open_status = '02'), so a payment and a close
-- racing for the same order end with exactly one winner.
CREATE TABLE pay_by_link_order (
  id              bigserial PRIMARY KEY,
  mer_id          varchar(15) NOT NULL REFERENCES merchant(mer_id),
  order_no        text NOT NULL UNIQUE,
  token           text NOT NULL UNIQUE,            -- /pay/{token}: 256 random bits, base64url
  recon_id        text NOT NULL,                   -- invoice id
  prod_category   text NOT NULL DEFAULT 'paybylink',
  order_currency  char(3) NOT NULL,
  total_amount    bigint NOT NULL CHECK (total_amount > 0),
  goods_name      text NOT NULL,
  goods_price     bigint NOT NULL CHECK (goods_price > 0),
  goods_quantity  int NOT NULL DEFAULT 1 CHECK (goods_quantity >= 1),
  log_fee         bigint NOT NULL DEFAULT 0 CHECK (log_fee >= 0),   -- shipping fee
  remarks         text,
  buyer_email     text,
  send_email      boolean NOT NULL DEFAULT false,
  attachment_id   bigint REFERENCES pay_by_link_attachment(id),
  status          char(2) NOT NULL DEFAULT '04' CHECK (status IN ('04', '00', '01')),
  open_status     char(2) NOT NULL DEFAULT '02' CHECK (open_status IN ('02', '00', '01')),
  close_reason    text CHECK (close_reason IN ('merchant', 'expired', 'failed')),
  email_status    text CHECK (email_status IN ('sent', 'failed')),
  expires_at      timestamptz NOT NULL,
  paid_at         timestamptz,
  closed_at       timestamptz,
  txn_id          bigint REFERENCES txn(id),
  created_by      int REFERENCES app_user(id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = '00') = (paid_at IS NOT NULL)),
  CHECK (status <> '04' OR open_status <> '01'),
  CHECK (status <> '01' OR open_status = '01'),
  CHECK (open_status <> '01' OR close_reason IS NOT NULL)
);
CREATE INDEX pay_by_link_order_mer_idx ON pay_by_link_order (mer_id, created_at DESC, id DESC);
CREATE INDEX pay_by_link_order_recon_idx ON pay_by_link_order (mer_id, recon_id);
CREATE INDEX pay_by_link_order_due_idx ON pay_by_link_order (expires_at) WHERE status = '04' AND open_status = '02';

-- The activity timeline: created, updated, e-mailed (or the failed send), opened by the buyer,
-- each payment attempt with its result, closed, expired.
CREATE TABLE pay_by_link_event (
  id          bigserial PRIMARY KEY,
  order_id    bigint NOT NULL REFERENCES pay_by_link_order(id),
  at          timestamptz NOT NULL DEFAULT now(),
  kind        text NOT NULL CHECK (kind IN ('created', 'updated', 'emailed', 'emailFailed', 'opened', 'payment', 'closed', 'expired')),
  actor       text,                                 -- user name, 'buyer' or 'system'
  detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX pay_by_link_event_order_idx ON pay_by_link_event (order_id, at, id);
