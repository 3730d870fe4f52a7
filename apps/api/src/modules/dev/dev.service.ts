import type { Language } from '@portal/contract';
import type { Db } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { DEMO, DEMO_SUB_PERMISSIONS } from '../../seed/foundation.seed';
import { sendActivation } from '../account';

/**
 * A new not-activated sub-user of the demo store, its activation e-mail sent through the real
 * service in the same transaction (no user without its mail). The development stand-in for user
 * management (`POST /api/dev/invite`).
 */
export async function inviteDemoUser(deps: Deps, b: { username: string; email: string }, lang: Language, meta: { ip?: string; userAgent?: string }): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, status, permissions) VALUES ($1,$2,$3,$4,'SUB','INACTIVE',$5) RETURNING id`,
      [b.username, UNUSABLE_PASSWORD, b.email, DEMO.subA, DEMO_SUB_PERMISSIONS],
    );
    await sendActivation(deps, q, rows[0].id, lang, meta);
  });
}

/** A failed job of kind dev.example (no handler: a retried one stays queued), for the back office's runs screen. Its id. */
export async function recordFailedJob(db: Db): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO job (kind, unique_key, payload, status, attempts, error, finished_at)
       VALUES ('dev.example', 'dev.example:' || gen_random_uuid()::text, '{}', 'failed', 3, 'Example failure: the mail server refused the connection', now()) RETURNING id`,
  );
  return Number(rows[0].id);
}
