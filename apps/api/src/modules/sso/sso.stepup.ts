import type { Deps } from '../../plugins/context';
import { audit } from '../../lib/audit';
import { grantStepUp, type Meta } from '../user';
import { SsoAudit, type ProviderRow } from './sso.service';

/**
 * The step-up of an SSO user (issue 51, docs/sso.md "Refunds and other confirmations"): the refund
 * password (and every other action behind the 5-minute step-up) is confirmed by a fresh
 * re-authentication at the user's identity provider — OIDC `prompt=login` with `max_age=0`, SAML
 * `ForceAuthn` — whose answer must name the same subject as the user's link, be fresh (the ID
 * token's `auth_time`, the assertion's `AuthnInstant`, no older than the start), and pass the
 * sign-in's provisioning again (a user whose access the IdP took away is refused and its sessions
 * end). Only then is the session that started it granted the step-up. The password is refused
 * for a user without one and for a merchant requiring SSO (break-glass administrators keep it).
 */
export interface StepUpState {
  userId: number;
  sessionId: number;
  subject: string;
  /** The wall clock (the IdP's clock is a real one) when the step-up started, in ms. */
  startedAt: number;
}

/** How old the IdP's authentication may be, before the start (clock skew between the two). */
export const STEP_UP_SKEW_MS = 60_000;

/** Where the IdP's browser window lands: a page saying it worked (or not), to close. */
export const stepUpDone = (ok: boolean) => `/api/sso/step-up/done?ok=${ok ? 1 : 0}`;

export async function stepUpFailed(deps: Deps, st: StepUpState, p: ProviderRow, reason: string, meta: Meta): Promise<string> {
  await audit(deps.db, { action: SsoAudit.stepUp, outcome: 'failure', userId: st.userId, merId: p.mer_id, detail: { reason, provider: p.id, kind: p.kind }, ...meta });
  return stepUpDone(false);
}

/** The IdP answered a step-up: same subject, fresh, still provisioned → the session's step-up. */
export async function finishStepUp<I extends { subject: string }>(
  deps: Deps,
  p: ProviderRow,
  st: StepUpState,
  identity: I,
  authTime: number | undefined,
  meta: Meta,
  /** The sign-in's provisioning (sso.login's provisionUser): the user's id, or a refusal thrown. */
  provision: (identity: I) => Promise<number>,
): Promise<string> {
  if (identity.subject !== st.subject) return stepUpFailed(deps, st, p, 'other-subject', meta);
  if (authTime === undefined || authTime < st.startedAt - STEP_UP_SKEW_MS) return stepUpFailed(deps, st, p, 'not-fresh', meta);
  let userId: number;
  try {
    userId = await provision(identity);
  } catch {
    return stepUpFailed(deps, st, p, 'provisioning', meta);
  }
  if (userId !== st.userId) return stepUpFailed(deps, st, p, 'other-user', meta);
  const now = deps.clock.now();
  const granted = await deps.db.tx(async (q) => {
    if (!(await grantStepUp(q, st.sessionId, st.userId, now))) return false;
    await audit(q, { action: SsoAudit.stepUp, userId: st.userId, merId: p.mer_id, detail: { provider: p.id, kind: p.kind, session: st.sessionId }, ...meta });
    return true;
  });
  return granted ? stepUpDone(true) : stepUpFailed(deps, st, p, 'session-ended', meta);
}
