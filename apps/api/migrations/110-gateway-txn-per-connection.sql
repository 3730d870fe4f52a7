-- Issue 47: a gateway's transaction ids are its own — unique per connection, not across the portal.
-- A connection could probe another's ids (a 409 said the id existed) and squat them (a rejected row
-- kept its claim). Now the claim is (connection, gateway id) and names the ledger row it stands for
-- (`ledger_id`, the row's txn.gw_trans_id): the gateway's own id when it was free, a portal-made one
-- when another connection's row already had it. One ledger row is claimed by one connection at most.
ALTER TABLE gateway_txn ADD COLUMN ledger_id text;
UPDATE gateway_txn SET ledger_id = gw_trans_id;
ALTER TABLE gateway_txn ALTER COLUMN ledger_id SET NOT NULL;
ALTER TABLE gateway_txn DROP CONSTRAINT gateway_txn_pkey;
ALTER TABLE gateway_txn ADD PRIMARY KEY (connection_id, gw_trans_id);
CREATE UNIQUE INDEX gateway_txn_ledger_uq ON gateway_txn (ledger_id);
