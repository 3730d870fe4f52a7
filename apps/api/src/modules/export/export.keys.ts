import type { Queryable } from '../../db/db';
import type { ExportFileRow } from './export.repo';

/**
 * An export file a merchant API key asked for (`api_key_export`, written by `enqueueExport`), not
 * deleted; undefined for another key's file or none — the /v1 face answers both as not found.
 */
export async function keyExportFile(q: Queryable, id: number, keyId: number): Promise<ExportFileRow | undefined> {
  const { rows } = await q.query<ExportFileRow>('SELECT e.* FROM export_file e JOIN api_key_export k ON k.export_id = e.id WHERE e.id = $1 AND k.key_id = $2 AND e.deleted_at IS NULL', [id, keyId]);
  return rows[0];
}
