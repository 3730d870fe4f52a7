import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, type OpsRole } from '@portal/contract';
import { AppError, forbidden } from '../../lib/errors';
import { sha256 } from '../../lib/crypto';
import { checkSessionAlive, type SessionState } from '../../plugins/auth';
import type { Deps } from '../../plugins/context';
import { OPERATOR_REALM } from '../user';

/** The signed-in operator of an /api/ops/ call. */
export interface Operator {
  id: number;
  username: string;
  email: string;
  role: OpsRole;
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    operator?: Operator | null;
  }
  interface FastifyContextConfig {
    /** /api/ops/ routes: the operator roles that may call it (administrator always may). 'public': no token. */
    opsRoles?: readonly OpsRole[] | 'public';
  }
}

interface OpsSessionRow extends SessionState {
  user_id: number;
  username: string;
  email: string;
  role: OpsRole;
}

/**
 * Resolves an operator's X-Token: looked up in the operator realm's tables only (a merchant user's
 * token is unknown here, 50012), then the same session rules as every realm (checkSessionAlive).
 */
export async function resolveOperator(deps: Deps, token: string): Promise<Operator> {
  const { rows } = await deps.db.query<OpsSessionRow>(
    `SELECT s.id AS session_id, a.expires_at, s.revoked_at, s.last_seen_at, s.absolute_expires_at,
            o.id AS user_id, o.username, o.email, o.role, o.status, o.locked_until
       FROM ops_access_token a JOIN ops_session s ON s.id = a.session_id JOIN ops_operator o ON o.id = s.user_id
      WHERE a.token_hash = $1`,
    [sha256(token)],
  );
  const r = rows[0];
  if (!r) throw new AppError(Code.TOKEN_INVALID, 'tokenInvalid', {}, 401);
  await checkSessionAlive(deps, r, OPERATOR_REALM);
  return { id: r.user_id, username: r.username, email: r.email, role: r.role, sessionId: r.session_id };
}

/**
 * The ops API's own authentication (decision 038): every /api/ops/ route is either `opsRoles:
 * 'public'` (sign-in, activation) or lists the roles that may call it; the administrator may call
 * every route. Checked on request, before the body is read or validated.
 */
export function registerOpsAuth(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (req) => {
    const url = req.routeOptions.url;
    if (req.is404 || !url?.startsWith('/api/ops/')) return;
    const roles = req.routeOptions.config.opsRoles;
    const docs = url.startsWith('/api/ops/docs');
    // The ops API's description: public when API_DOCS=public (as /api/docs), else any signed-in operator.
    if (roles === 'public' || (docs && (deps.config.apiDocs ?? 'public') === 'public')) return;
    const token = req.headers['x-token'];
    if (typeof token !== 'string' || !token) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
    req.operator = await resolveOperator(deps, token);
    if (docs) return;
    // A route without a role list is open to the administrator only (deny by default).
    if (req.operator.role !== 'administrator' && !(roles ?? []).includes(req.operator.role)) throw forbidden();
  });
}

export function operatorOf(req: FastifyRequest): Operator {
  if (!req.operator) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
  return req.operator;
}
