/** "SSO required" and its break-glass administrators: saved, and the two guards the user module runs. */
import { Code } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta, SignInStep } from '../user';
import { callerGroup, policyOf, SsoAudit, who } from './sso.provider';

/**
 * "SSO required" and the break-glass administrators. Requiring SSO needs an enabled provider, a
 * verified domain and at least one break-glass administrator (active, of the group), so the
 * merchant cannot lock itself out.
 */
export async function savePolicy(deps: Deps, caller: SessionUser, input: { ssoRequired: boolean; breakGlass: number[] }, meta: Meta): Promise<{ ssoRequired: boolean; breakGlass: number[] }> {
  const g = await callerGroup(deps, caller);
  const ids = [...new Set(input.breakGlass)].sort((a, b) => a - b);
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    if (ids.length) {
      const { rows } = await q.query<{ id: number }>(`SELECT id FROM app_user WHERE id = ANY($1::int[]) AND mer_id = $2 AND user_admin AND status = 'ACTIVE' AND removed_at IS NULL`, [ids, g]);
      if (rows.length !== ids.length) throw new AppError(Code.BAD_REQUEST, 'ssoBreakGlassNotAdmin', {}, 400);
    }
    if (input.ssoRequired) {
      if (!ids.length) throw new AppError(Code.BAD_REQUEST, 'ssoBreakGlassNeeded', {}, 400);
      const ready = await q.query(`SELECT 1 FROM sso_provider p WHERE p.mer_id = $1 AND p.enabled AND EXISTS (SELECT 1 FROM sso_domain d WHERE d.mer_id = $1 AND d.verified_at IS NOT NULL)`, [g]);
      if (!ready.rows[0]) throw new AppError(Code.CONFLICT, 'ssoRequireNeedsDomain', {}, 409);
    }
    const before = await policyOf(q, g);
    await q.query(
      `INSERT INTO sso_policy (mer_id, sso_required, updated_at, updated_by) VALUES ($1,$2,$3,$4)
       ON CONFLICT (mer_id) DO UPDATE SET sso_required = EXCLUDED.sso_required, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [g, input.ssoRequired, now, caller.username],
    );
    await q.query('DELETE FROM sso_break_glass WHERE mer_id = $1', [g]);
    if (ids.length) await q.query('INSERT INTO sso_break_glass (mer_id, user_id) SELECT $1, unnest($2::int[])', [g, ids]);
    await audit(q, {
      action: SsoAudit.policySaved,
      ...who(caller, meta),
      merId: g,
      detail: { before: { ssoRequired: before.required, breakGlass: before.breakGlass }, after: { ssoRequired: input.ssoRequired, breakGlass: ids } },
    });
    return { ssoRequired: input.ssoRequired, breakGlass: ids };
  });
}

/**
 * The sign-in guard of "SSO required" (user module's `addSignInGuard`): a user of a group that
 * requires SSO is refused passwords, e-mailed codes and resets unless named break-glass.
 */
export async function ssoRequiredGuard(q: Queryable, user: { id: number; mer_id: string }, step?: SignInStep): Promise<void> {
  const { rows } = await q.query<{ refused: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM merchant m JOIN sso_policy p ON p.mer_id = COALESCE(m.parent_id, m.mer_id)
        WHERE m.mer_id = $2 AND p.sso_required
          AND NOT EXISTS (SELECT 1 FROM sso_break_glass b WHERE b.mer_id = p.mer_id AND b.user_id = $1)) AS refused`,
    [user.id, user.mer_id],
  );
  if (!rows[0].refused) return;
  // The refund password of a signed-in user: confirmed at the identity provider instead (sso.stepup.ts).
  if (step === 'step-up') throw new AppError(Code.STEP_UP_USE_SSO, 'stepUpUseSso', {}, 200);
  throw new AppError(Code.SSO_REQUIRED, 'ssoRequired', {}, 200);
}

/**
 * The access guard of "SSO required" (user module's `addAccessGuard`): while the merchant group
 * requires SSO, its last usable break-glass administrator (active, an administrator, not removed)
 * may not be disabled, removed or made a non-administrator — the merchant would lock itself out.
 * Name another break-glass administrator first, or turn "SSO required" off.
 */
export async function breakGlassGuard(q: Queryable, user: { id: number; mer_id: string }): Promise<void> {
  const { rows } = await q.query<{ last: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM merchant m JOIN sso_policy p ON p.mer_id = COALESCE(m.parent_id, m.mer_id) AND p.sso_required
         JOIN sso_break_glass b ON b.mer_id = p.mer_id AND b.user_id = $1
        WHERE m.mer_id = $2
          AND NOT EXISTS (SELECT 1 FROM sso_break_glass o JOIN app_user u ON u.id = o.user_id
                           WHERE o.mer_id = p.mer_id AND o.user_id <> $1 AND u.user_admin AND u.status = 'ACTIVE' AND u.removed_at IS NULL)) AS last`,
    [user.id, user.mer_id],
  );
  if (rows[0].last) throw new AppError(Code.LAST_ADMIN, 'ssoLastBreakGlass', {}, 200);
}
