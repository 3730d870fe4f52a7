-- Stores and pay in store (issue 14, decision 018).
--
-- A store belongs to one merchant. Its id (`S` + 8 digits) and name are what transactions carry
-- as storeId / storeName: ingestion takes the name from this table. `brands` are the payment
-- brands the provider enabled for the store (a brand also needs its channel enabled for the
-- merchant); a store without any gets 'You have not enabled this function, please contact sales'.
-- `static_token` is the key of the store's printed QR (/pay/store/{token}: the buyer enters the amount).
CREATE SEQUENCE store_no_seq START 30000001;
CREATE TABLE store (
  store_id      text PRIMARY KEY DEFAULT ('S' || lpad(nextval('store_no_seq')::text, 8, '0')),
  mer_id        varchar(15) NOT NULL REFERENCES merchant(mer_id),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
  address       text,
  brands        text[] NOT NULL DEFAULT '{}',
  static_token  text NOT NULL UNIQUE DEFAULT (replace(replace(rtrim(encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'base64'), '='), '+', '-'), '/', '_')),
  enabled       boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (mer_id, name)
);
CREATE INDEX store_mer_idx ON store (mer_id, store_id);

-- Existing transactions: every store they name becomes a store of its merchant (with the brands
-- its transactions used), and every transaction gets its store's id.
INSERT INTO store (store_id, mer_id, name, brands)
SELECT t.store_id, min(t.mer_id), min(coalesce(t.store_name, t.store_id)), coalesce(array_agg(DISTINCT t.payment_brand) FILTER (WHERE t.payment_brand IS NOT NULL), '{}')
  FROM txn t WHERE t.store_id IS NOT NULL
 GROUP BY t.store_id
ON CONFLICT DO NOTHING;

INSERT INTO store (mer_id, name, brands)
SELECT t.mer_id, t.store_name, coalesce(array_agg(DISTINCT t.payment_brand) FILTER (WHERE t.payment_brand IS NOT NULL), '{}')
  FROM txn t
 WHERE t.store_id IS NULL AND t.store_name IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM store s WHERE s.mer_id = t.mer_id AND s.name = t.store_name)
 GROUP BY t.mer_id, t.store_name
 ORDER BY t.mer_id, t.store_name;

UPDATE txn t SET store_id = s.store_id
  FROM store s
 WHERE t.store_id IS NULL AND t.store_name IS NOT NULL AND s.mer_id = t.mer_id AND s.name = t.store_name;

-- In-store orders are orders of the hosted checkout too (prod_category 'payinstore'), paid
-- through /pay/{token} like a pay link; they carry their store.
ALTER TABLE pay_by_link_order ADD COLUMN store_id text REFERENCES store(store_id);
ALTER TABLE pay_by_link_order ADD CONSTRAINT pay_by_link_order_store_chk CHECK (prod_category <> 'payinstore' OR store_id IS NOT NULL);
CREATE INDEX pay_by_link_order_store_idx ON pay_by_link_order (store_id, created_at DESC, id DESC) WHERE store_id IS NOT NULL;
CREATE SEQUENCE pay_in_store_order_no_seq;

-- Cashiers: a WeChat user bound to one store (spec §6 Cashier: cashierId, WeChat name, binding date).
-- A binding starts as an OAuth state (oauth_state of 008, purpose 'cashier.bind': the QR the main
-- user shows); the cashier's WeChat authorisation completes it. Unbinding keeps the row (unbound_at).
CREATE SEQUENCE cashier_no_seq START 10000001;
CREATE TABLE cashier (
  cashier_id    text PRIMARY KEY DEFAULT ('C' || lpad(nextval('cashier_no_seq')::text, 8, '0')),
  store_id      text NOT NULL REFERENCES store(store_id),
  wechat_openid text NOT NULL,
  wechat_name   text NOT NULL,
  bound_at      timestamptz NOT NULL,
  bound_by      int REFERENCES app_user(id),
  unbound_at    timestamptz,
  unbound_by    int REFERENCES app_user(id)
);
-- One live binding per WeChat account and store.
CREATE UNIQUE INDEX cashier_live_idx ON cashier (store_id, wechat_openid) WHERE unbound_at IS NULL;
CREATE INDEX cashier_openid_idx ON cashier (wechat_openid) WHERE unbound_at IS NULL;

-- A cashier's sign-in (through WeChat) into the restricted cashier view: its store's in-store orders.
CREATE TABLE cashier_session (
  token_hash    text PRIMARY KEY,
  cashier_id    text NOT NULL REFERENCES cashier(cashier_id),
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);

-- Who may do it: whoever may create pay-by-link orders may create in-store orders; main users
-- manage cashiers.
UPDATE app_user SET permissions = array_append(permissions, 'payinstore:create')
 WHERE 'paybylink:create' = ANY(permissions) AND NOT 'payinstore:create' = ANY(permissions);
UPDATE app_user SET permissions = array_append(permissions, 'payinstore:cashier:manage')
 WHERE user_type = 'MAIN' AND NOT 'payinstore:cashier:manage' = ANY(permissions);
