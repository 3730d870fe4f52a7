-- Secondary indexes of the ledger set aside during a fresh database's bulk load (the demo
-- generator, apps/api/src/db/bulk-load.ts): their definitions, until they are built again. A row
-- left here by a crash is built at the next start.
CREATE TABLE deferred_index (
  name       text PRIMARY KEY,
  def        text NOT NULL CHECK (def LIKE 'CREATE %INDEX %'),
  dropped_at timestamptz NOT NULL DEFAULT now()
);
