-- Issue 48: the inbox's daily dispute file (<connection id>/*.disputes.jsonl) is an import of its own kind.
DO $$
DECLARE c text;
BEGIN
  FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = 'import_file'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%kind%' LOOP
    EXECUTE format('ALTER TABLE import_file DROP CONSTRAINT %I', c);
  END LOOP;
END $$;
ALTER TABLE import_file ADD CONSTRAINT import_file_kind_check CHECK (kind IN ('transactions', 'rates', 'disputes'));
