import type { Deps, SessionUser } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { AccountAudit } from './account.audit';

interface Meta {
  ip?: string;
  userAgent?: string;
}

/**
 * The zone the user chose for every time the portal shows (an IANA name checked by the route's
 * schema), or absent / '' for the browser's own. Written to the user row — which ends the cached sessions'
 * copies on every process (the auth tables' notification) — and audit-logged with the old and new zone.
 */
export async function updateTimeZone(deps: Deps, user: SessionUser, timeZone: string | undefined, meta: Meta): Promise<{ timeZone: string | null }> {
  const zone = timeZone ? timeZone : null;
  return deps.db.tx(async (q) => {
    const { rows } = await q.query<{ before: string | null }>('SELECT time_zone AS before FROM app_user WHERE id = $1 FOR UPDATE', [user.id]);
    await q.query('UPDATE app_user SET time_zone = $2 WHERE id = $1', [user.id, zone]);
    await audit(q, { action: AccountAudit.timeZoneChanged, userId: user.id, username: user.username, merId: user.merId, detail: { from: rows[0]?.before ?? null, to: zone }, ...meta });
    return { timeZone: zone };
  });
}
