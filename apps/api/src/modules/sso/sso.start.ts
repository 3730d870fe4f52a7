import { Code } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { checkSignIn, findUserById, hasStepUp, type Meta } from '../user';
import { oidcStart } from './sso.login';
import { samlStart } from './sso.saml';
import { providerById, providerForEmail } from './sso.service';
import type { StepUpState } from './sso.stepup';

/** "Sign in with SSO" for an e-mail: its verified domain's provider (OIDC or SAML) and where to send the browser. */
export async function startSso(deps: Deps, email: string, meta: Meta): Promise<{ url: string; browser: string; kind: 'oidc' | 'saml' }> {
  const p = await providerForEmail(deps.db, email);
  if (!p) throw new AppError(Code.NOT_FOUND, 'ssoNoProvider', {}, 200);
  return { ...(p.kind === 'saml' ? await samlStart(deps, p) : await oidcStart(deps, p, email, meta)), kind: p.kind };
}

/** The signed-in user's link to an enabled identity provider of its group, if any. */
async function linkOf(deps: Deps, userId: number): Promise<{ subject: string; email: string; providerId: number } | null> {
  const { rows } = await deps.db.query<{ subject: string; email: string; provider_id: number }>(
    `SELECT i.subject, i.email, i.provider_id FROM sso_identity i JOIN sso_provider p ON p.id = i.provider_id AND p.mer_id = i.mer_id
      WHERE i.user_id = $1 AND p.enabled ORDER BY i.last_login_at DESC NULLS LAST LIMIT 1`,
    [userId],
  );
  return rows[0] ? { subject: rows[0].subject, email: rows[0].email, providerId: Number(rows[0].provider_id) } : null;
}

/**
 * How the signed-in user confirms a step-up (the refund dialog asks): `sso` — at its identity
 * provider (linked, provider enabled); `password` — with its password (it has one, and its
 * merchant does not require SSO of it); `active` — the session's step-up holds now.
 */
export async function stepUpOptions(deps: Deps, caller: SessionUser): Promise<{ sso: boolean; password: boolean; active: boolean }> {
  const link = await linkOf(deps, caller.id);
  const user = await findUserById(deps.db, caller.id);
  const hasPassword = !!user?.password_hash.startsWith('$');
  const password =
    hasPassword &&
    !!user &&
    (await checkSignIn(deps.db, user, 'step-up').then(
      () => true,
      () => false,
    ));
  return { sso: !!link, password, active: hasStepUp(caller.stepUpUntil, deps.clock.now()) };
}

/** Starts the step-up at the user's identity provider (docs/sso.md): the URL to open, the browser's half of the state. */
export async function startStepUp(deps: Deps, caller: SessionUser, meta: Meta): Promise<{ url: string; browser: string; kind: 'oidc' | 'saml' }> {
  const link = await linkOf(deps, caller.id);
  const p = link && (await providerById(deps.db, link.providerId));
  if (!link || !p) throw new AppError(Code.BAD_REQUEST, 'stepUpSsoNone', {}, 400);
  const stepUp: StepUpState = { userId: caller.id, sessionId: caller.sessionId, subject: link.subject, startedAt: Date.now() };
  return { ...(p.kind === 'saml' ? await samlStart(deps, p, { ...stepUp }) : await oidcStart(deps, p, link.email, meta, { ...stepUp })), kind: p.kind };
}
