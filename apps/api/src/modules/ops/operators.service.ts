import { Code, type Language, type OpsRole } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { t } from '../../lib/messages';
import { sha256 } from '../../lib/crypto';
import { OPERATOR_REALM } from '../user';
import { consumeLink, createLink, findLink, linkUsable } from '../account';
import { UNUSABLE_PASSWORD } from '../../lib/crypto';
import { publicBase } from '../../lib/public-url';
import { checkPasswordRules, hashPassword } from '../account';
import { acceptTotp, newRecoveryCodes, newTotpSecret, storeRecoveryCodes, totpFor } from '../user';
import { maskEmail } from '../account';
import type { Meta } from '../user';
import type { Operator } from './ops.auth';

/** Audit actions of the back office's operator accounts. */
const OpsAudit = {
  operatorCreated: 'ops.operator.create',
  operatorActivated: 'ops.operator.activate',
  activationSent: 'ops.operator.activation_sent',
  roleChanged: 'ops.operator.role',
  operatorDisabled: 'ops.operator.disable',
  operatorEnabled: 'ops.operator.enable',
  sessionRevoked: 'ops.session.revoke',
} as const;

/** Who did it: an operator, or the command line (the first operator). */
export type OpsActor = Pick<Operator, 'id' | 'username'> | { cli: true };
const actorOf = (by: OpsActor) => ('cli' in by ? { operatorId: null, username: 'cli' } : { operatorId: by.id, username: by.username });

const OPS_ACTIVATE_PATH = '/ops/activate';

export interface OperatorRow {
  id: number;
  username: string;
  email: string;
  role: OpsRole;
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  created_at: Date;
  locked_until: Date | null;
}

const opsLink = (deps: Deps, token: string) => `${publicBase(deps)}${OPS_ACTIVATE_PATH}?token=${token}`;

/**
 * Creates an operator (not activated, unusable password, its authenticator's secret made now and
 * shown on the activation page) and its 72-hour activation link, in one transaction. Returns the
 * link: the command line prints it, the back office mails it.
 */
export async function createOperator(deps: Deps, input: { username: string; email: string; role: OpsRole }, by: OpsActor, meta: Meta): Promise<{ id: number; link: string }> {
  const now = deps.clock.now();
  return deps.db.tx(async (q) => {
    const dup = await q.query('SELECT 1 FROM ops_operator WHERE lower(username) = lower($1) OR lower(email) = lower($2)', [input.username, input.email]);
    if (dup.rows.length) throw new AppError(Code.BAD_REQUEST, 'opsOperatorExists');
    const { rows } = await q
      .query<{ id: number }>(
        `INSERT INTO ops_operator (username, email, role, password_hash, totp_secret, created_by, created_at, password_changed_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$7) RETURNING id`,
        [input.username, input.email, input.role, UNUSABLE_PASSWORD, newTotpSecret(), 'cli' in by ? null : by.id, now],
      )
      .catch((err: { code?: string }) => {
        // Two creations of one name at once: the unique index decides.
        if (err.code === '23505') throw new AppError(Code.BAD_REQUEST, 'opsOperatorExists');
        throw err;
      });
    const id = rows[0].id;
    const token = await createLink(q, now, id, 'activate', OPERATOR_REALM);
    await audit(q, {
      action: OpsAudit.operatorCreated,
      ...actorOf(by),
      target: `operator:${id}`,
      detail: { before: null, after: { username: input.username, email: input.email, role: input.role, status: 'INACTIVE' } },
      ...meta,
    });
    return { id, link: opsLink(deps, token) };
  });
}

/**
 * Mails an operator's activation link (after the transaction that made it: no mail is sent while a
 * transaction is open). A mail that cannot go withdraws the link; the administrator may send again.
 */
async function mailActivation(deps: Deps, q: Queryable, operatorId: number, link: string, lang: Language, by: OpsActor, meta: Meta): Promise<void> {
  const { rows } = await q.query<OperatorRow>('SELECT id, username, email, role, status FROM ops_operator WHERE id = $1', [operatorId]);
  const o = rows[0];
  if (!o) throw notFound();
  try {
    await deps.mailer.send({ to: o.email, subject: t(lang, 'mailOpsActivationSubject'), text: t(lang, 'mailOpsActivationBody', { user: o.username, role: o.role, link }) });
  } catch (err) {
    const token = new URL(link).searchParams.get('token') ?? '';
    await q.query('UPDATE ops_link SET expires_at = $2 WHERE token_hash = $1', [sha256(token), deps.clock.now()]);
    await audit(q, { action: OpsAudit.activationSent, outcome: 'failure', ...actorOf(by), target: `operator:${o.id}`, detail: { error: String((err as Error).message).slice(0, 200) }, ...meta });
    throw new AppError(Code.SEND_MAIL_FAILED, 'sendMailFailed');
  }
  await audit(q, { action: OpsAudit.activationSent, ...actorOf(by), target: `operator:${o.id}`, ...meta });
}

/** Invites an operator from the back office: created, then its link mailed. */
export async function inviteOperator(deps: Deps, input: { username: string; email: string; role: OpsRole }, by: Operator, lang: Language, meta: Meta): Promise<{ id: number }> {
  const { id, link } = await createOperator(deps, input, by, meta);
  await mailActivation(deps, deps.db, id, link, lang, by, meta);
  return { id };
}

/** A new activation link for an operator not activated yet (the old ones stop working), mailed. */
export async function resendActivation(deps: Deps, id: number, by: Operator, lang: Language, meta: Meta): Promise<void> {
  const token = await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ status: string }>('SELECT status FROM ops_operator WHERE id = $1 FOR UPDATE', [id]);
    if (!rows[0] || rows[0].status !== 'INACTIVE') throw notFound();
    return createLink(q, deps.clock.now(), id, 'activate', OPERATOR_REALM);
  });
  await mailActivation(deps, deps.db, id, opsLink(deps, token), lang, by, meta);
}

async function pendingOperator(deps: Deps, token: string) {
  const link = await findLink(deps.db, token, 'activate', OPERATOR_REALM);
  if (!linkUsable(link, deps.clock.now())) throw new AppError(Code.LINK_EXPIRED, 'opsActivationExpired');
  const { rows } = await deps.db.query<{ id: number; username: string; email: string; role: OpsRole; status: string; totp_secret: string }>(
    'SELECT id, username, email, role, status, totp_secret FROM ops_operator WHERE id = $1',
    [link.user_id],
  );
  const o = rows[0];
  if (!o || o.status !== 'INACTIVE') throw new AppError(Code.LINK_EXPIRED, 'opsActivationExpired');
  return o;
}

/** The activation page: who is activating and the authenticator's key to set up (the link is the credential). */
export async function activationInfo(deps: Deps, token: string) {
  const o = await pendingOperator(deps, token);
  return { username: o.username, email: maskEmail(o.email), role: o.role, totpSecret: o.totp_secret, otpauthUri: totpFor(o.totp_secret, o.username).toString() };
}

/**
 * Activation: the first password and the authenticator, both at once — an operator is never active
 * without a second factor. The link is used once (atomically); the recovery codes are shown once.
 */
export async function activateOperator(deps: Deps, input: { token: string; newPassword: string; confirmPassword: string; totpCode: string }, meta: Meta) {
  checkPasswordRules(deps, input.newPassword, input.confirmPassword);
  const o = await pendingOperator(deps, input.token);
  const hash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  const codes = newRecoveryCodes();
  return deps.db.tx(async (q) => {
    if (!(await acceptTotp(q, o.id, o.totp_secret, input.totpCode, now, OPERATOR_REALM))) throw new AppError(Code.VERIFY_CODE_ERROR, 'opsTotpCodeWrong');
    const id = await consumeLink(q, input.token, 'activate', now, OPERATOR_REALM);
    if (id !== o.id) throw new AppError(Code.LINK_EXPIRED, 'opsActivationExpired');
    const { rows } = await q.query(
      `UPDATE ops_operator SET status = 'ACTIVE', password_hash = $2, password_changed_at = $3, totp_enabled_at = $3, failed_logins = 0, locked_until = NULL
        WHERE id = $1 AND status = 'INACTIVE' RETURNING id`,
      [o.id, hash, now],
    );
    if (!rows[0]) throw new AppError(Code.LINK_EXPIRED, 'opsActivationExpired');
    await storeRecoveryCodes(q, o.id, codes, OPERATOR_REALM);
    await audit(q, {
      action: OpsAudit.operatorActivated,
      operatorId: o.id,
      username: o.username,
      target: `operator:${o.id}`,
      detail: { before: { status: 'INACTIVE' }, after: { status: 'ACTIVE', totp: true } },
      ...meta,
    });
    return { username: o.username, recoveryCodes: codes };
  });
}

export async function listOperators(deps: Deps) {
  const { rows } = await deps.db.query<OperatorRow>('SELECT id, username, email, role, status, created_at, locked_until FROM ops_operator ORDER BY id');
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    email: r.email,
    role: r.role,
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    locked: !!r.locked_until && new Date(r.locked_until) > deps.clock.now(),
  }));
}

/** Locks the operator row and refuses changes to oneself and the loss of the last active administrator. */
async function changeable(q: Queryable, id: number, by: Operator, losesAdmin: (o: OperatorRow) => boolean): Promise<OperatorRow> {
  if (id === by.id) throw new AppError(Code.FORBIDDEN, 'opsNotOnSelf', {}, 403);
  // Every administrator row locked in id order: two demotions at once cannot both pass the count.
  await q.query(`SELECT id FROM ops_operator WHERE role = 'administrator' ORDER BY id FOR UPDATE`);
  const { rows } = await q.query<OperatorRow>('SELECT id, username, email, role, status, created_at, locked_until FROM ops_operator WHERE id = $1 FOR UPDATE', [id]);
  const o = rows[0];
  if (!o) throw notFound();
  if (o.role === 'administrator' && o.status === 'ACTIVE' && losesAdmin(o)) {
    const n = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ops_operator WHERE role = 'administrator' AND status = 'ACTIVE' AND id <> $1`, [id]);
    if (n.rows[0].n === 0) throw new AppError(Code.BAD_REQUEST, 'opsLastAdministrator');
  }
  return o;
}

export async function setRole(deps: Deps, id: number, role: OpsRole, by: Operator, meta: Meta): Promise<void> {
  await deps.db.tx(async (q) => {
    const o = await changeable(q, id, by, () => role !== 'administrator');
    if (o.role === role) return;
    await q.query('UPDATE ops_operator SET role = $2 WHERE id = $1', [id, role]);
    await audit(q, { action: OpsAudit.roleChanged, ...actorOf(by), target: `operator:${id}`, detail: { before: { role: o.role }, after: { role } }, ...meta });
  });
}

/** Disables (every session ends at once) or enables an operator. */
export async function setEnabled(deps: Deps, id: number, enabled: boolean, by: Operator, meta: Meta): Promise<void> {
  await deps.db.tx(async (q) => {
    const o = await changeable(q, id, by, () => !enabled);
    if (o.status === 'INACTIVE') throw notFound();
    const status = enabled ? 'ACTIVE' : 'DISABLED';
    if (o.status === status) return;
    await q.query('UPDATE ops_operator SET status = $2 WHERE id = $1', [id, status]);
    if (!enabled) await q.query(`UPDATE ops_session SET revoked_at = now(), revoke_reason = 'disabled' WHERE user_id = $1 AND revoked_at IS NULL`, [id]);
    await audit(q, {
      action: enabled ? OpsAudit.operatorEnabled : OpsAudit.operatorDisabled,
      ...actorOf(by),
      target: `operator:${id}`,
      detail: { before: { status: o.status }, after: { status } },
      ...meta,
    });
  });
}

/** The operator's own open sessions (this one marked). */
export async function listSessions(deps: Deps, op: Operator) {
  const { rows } = await deps.db.query<{ id: number; created_at: Date; last_seen_at: Date; ip: string | null; user_agent: string | null }>(
    `SELECT id, created_at, last_seen_at, ip, user_agent FROM ops_session
      WHERE user_id = $1 AND revoked_at IS NULL AND absolute_expires_at > $2 ORDER BY last_seen_at DESC LIMIT 50`,
    [op.id, deps.clock.now()],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    ip: r.ip,
    userAgent: r.user_agent,
    current: Number(r.id) === Number(op.sessionId),
  }));
}

/** Ends one of the operator's own sessions; another operator's session answers as absent. */
export async function revokeSession(deps: Deps, op: Operator, sessionId: number, meta: Meta): Promise<void> {
  await deps.db.tx(async (q) => {
    const { rows } = await q.query(`UPDATE ops_session SET revoked_at = now(), revoke_reason = 'revoked' WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id`, [sessionId, op.id]);
    if (!rows[0]) throw notFound();
    await audit(q, { action: OpsAudit.sessionRevoked, operatorId: op.id, username: op.username, target: `ops_session:${sessionId}`, ...meta });
  });
}
