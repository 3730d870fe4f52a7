import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, LIMITS, pickLanguage } from '@portal/contract';
import { AppError, forbidden, notFound } from '../lib/errors';
import { sha256 } from '../lib/crypto';
import { t } from '../lib/messages';
import type { Deps, SessionUser } from './context';
import { HOUSEKEEPING, type Queryable } from '../db/db';
import { MERCHANT_REALM, type Realm } from '../lib/realm';

interface SessionRow {
  session_id: number;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date;
  absolute_expires_at: Date;
  step_up_until: Date | null;
  user_id: number;
  username: string;
  email: string;
  mer_id: string;
  mer_name: string;
  attribute: string;
  user_type: 'MAIN' | 'SUB';
  user_admin: boolean;
  status: string;
  permissions: string[];
  locked_until: Date | null;
  scope: string[];
  must_enrol_totp?: boolean;
  time_zone: string | null;
}

export async function endSession(q: Queryable, sessionId: number, reason: string, realm: Realm = MERCHANT_REALM): Promise<void> {
  await q.query(`UPDATE ${realm.sessions} SET revoked_at = now(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL`, [sessionId, reason]);
}

/** Tables whose rows decide who a token is and what it may do. */
const AUTH_TABLES = /\b(?:access_token|user_session|app_user|merchant|user_merchant_scope|user_passkey)\b/i;
/** The notification channel of auth-table changes (migration 009's triggers). */
const AUTH_CHANNEL = 'portal_auth';
/**
 * Marks the auth hook's own last-seen write, which changes nothing the cache holds but that time,
 * nor anything a list shows (HOUSEKEEPING: it does not turn the caller's reads to the primary).
 */
const TOUCH = `${HOUSEKEEPING} /* session-touch */`;

/**
 * The looked-up session rows of recent tokens, so a busy user's calls do not each pay a database
 * round trip before their own query. Exact within this process: any write through the same Db to
 * a table above (sign-in, refresh, logout, lockout, step-up, permissions, merchant tree) empties
 * it, and a look-up that raced with such a write is not kept (generation check). Between
 * processes (several servers on one PostgreSQL) a change is seen within `ttlMs`; every time-based
 * rule (token expiry, idle, 12 h) is still checked on each call against the clock.
 */
export class SessionCache {
  private readonly rows = new Map<string, { row: SessionRow; at: number }>();
  private generation = 0;
  /**
   * False while a PostgreSQL process's notification listener is not (yet, or no longer) listening:
   * then the cache is off, since another process's change could go unannounced (decision 013).
   */
  private trusted = true;

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  get(hash: string): SessionRow | undefined {
    if (!this.trusted) return undefined;
    const hit = this.rows.get(hash);
    if (!hit) return undefined;
    if (performance.now() - hit.at > this.ttlMs) {
      this.rows.delete(hash);
      return undefined;
    }
    return hit.row;
  }

  /** The generation a look-up starts in; `set` keeps its row only if nothing changed since. */
  mark(): number {
    return this.generation;
  }

  set(hash: string, row: SessionRow, generation: number): void {
    if (this.ttlMs <= 0 || !this.trusted || generation !== this.generation) return;
    if (this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(hash, { row, at: performance.now() });
  }

  clear(): void {
    this.generation++;
    this.rows.clear();
  }

  /**
   * Empties the cache on every write that touches an auth table (except the last-seen touch), and
   * on PostgreSQL whenever another process announces one (channel `portal_auth`, sent at COMMIT by
   * the triggers of migration 009): a disabled user's or ended session's token is refused by every
   * process as soon as the notification arrives (milliseconds), not after the cache time.
   */
  watch(db: Deps['db']): () => Promise<void> {
    const unwatch = db.onWrite((sql) => {
      if (AUTH_TABLES.test(sql) && !sql.startsWith(TOUCH)) this.clear();
    });
    if (!db.listen) return async () => unwatch();
    this.trusted = false;
    const stop = db.listen(
      AUTH_CHANNEL,
      () => this.clear(),
      (listening) => {
        this.clear();
        this.trusted = listening;
      },
    );
    return async () => {
      unwatch();
      this.trusted = false;
      await stop();
    };
  }
}

const caches = new WeakMap<Deps, SessionCache>();

/** The state and time fields of a looked-up session that every realm's token check reads. */
export interface SessionState {
  session_id: number;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date;
  absolute_expires_at: Date;
  status: string;
  locked_until: Date | null;
}

/**
 * The rules of a live session, the same in every realm (decision 038): revoked, idle 15 min,
 * absolute 12 h, account disabled or locked → ended (50014); access token expired (3). Touches
 * last-seen at most every 30 s.
 */
export async function checkSessionAlive(deps: Deps, r: SessionState, realm: Realm = MERCHANT_REALM): Promise<void> {
  const now = deps.clock.now();
  if (r.revoked_at) throw new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
  const idle = now.getTime() - new Date(r.last_seen_at).getTime() > LIMITS.idleSeconds * 1000;
  const absolute = now >= new Date(r.absolute_expires_at);
  const blocked = r.status !== 'ACTIVE' || (r.locked_until && new Date(r.locked_until) > now);
  if (idle || absolute || blocked) {
    await endSession(deps.db, r.session_id, idle ? 'idle' : absolute ? 'absolute' : 'user-blocked', realm);
    throw new AppError(Code.SESSION_ENDED, 'sessionEnded', {}, 401);
  }
  if (now >= new Date(r.expires_at)) throw new AppError(Code.TOKEN_EXPIRED, 'tokenExpired', {}, 401);
  if (now.getTime() - new Date(r.last_seen_at).getTime() > 30_000) {
    await deps.db.query(`${TOUCH} UPDATE ${realm.sessions} SET last_seen_at = $2 WHERE id = $1`, [r.session_id, now]);
    r.last_seen_at = now; // the cached row too: its next idle check counts from here
  }
}

/**
 * Resolves X-Token into the caller. Order: unknown token (50012), session ended — revoked, idle
 * 15 min, absolute 12 h, user disabled or locked — (50014), access token expired (3).
 */
export async function resolveSession(deps: Deps, token: string): Promise<SessionUser> {
  const hash = sha256(token);
  const cache = caches.get(deps);
  const cached = cache?.get(hash);
  const generation = cache?.mark() ?? 0;
  const rows = cached
    ? [cached]
    : (
        await deps.db.query<SessionRow>(
          `SELECT s.id AS session_id, a.expires_at, s.revoked_at, s.last_seen_at, s.absolute_expires_at, s.step_up_until,
            u.id AS user_id, u.username, u.email, u.mer_id, m.name AS mer_name, m.attribute, u.user_type, u.user_admin,
            u.status, u.permissions, u.locked_until, u.time_zone,
            ARRAY(SELECT sm.mer_id::text FROM merchant sm
                   WHERE CASE WHEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id)
                     -- a stored scope (migration 009): those merchants, within the home merchant's group
                     THEN EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id = sm.mer_id)
                          AND (sm.mer_id = COALESCE(m.parent_id, m.mer_id) OR sm.parent_id = COALESCE(m.parent_id, m.mer_id))
                     ELSE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) END
                   ORDER BY sm.mer_id) AS scope,
            (u.totp_enabled_at IS NULL AND NOT EXISTS (SELECT 1 FROM user_passkey p WHERE p.user_id = u.id) AND EXISTS (SELECT 1 FROM merchant x WHERE x.require_totp AND (x.mer_id = m.mer_id OR x.mer_id = m.parent_id))) AS must_enrol_totp
       FROM access_token a JOIN user_session s ON s.id = a.session_id
       JOIN app_user u ON u.id = s.user_id JOIN merchant m ON m.mer_id = u.mer_id
      WHERE a.token_hash = $1`,
          [hash],
        )
      ).rows;
  const r = rows[0];
  if (!r) throw new AppError(Code.TOKEN_INVALID, 'tokenInvalid', {}, 401);
  if (!cached) cache?.set(hash, r, generation);
  await checkSessionAlive(deps, r);
  return {
    id: r.user_id,
    username: r.username,
    email: r.email,
    merId: r.mer_id,
    merName: r.mer_name,
    userType: r.user_type,
    userAdmin: r.user_admin,
    permissions: r.permissions,
    sessionId: r.session_id,
    scope: r.scope,
    stepUpUntil: r.step_up_until ? new Date(r.step_up_until) : null,
    mustEnrolTotp: !!r.must_enrol_totp,
    timeZone: r.time_zone,
  };
}

/**
 * The one mechanism every module uses: each request gets its language and time-zone offset; every
 * route that is not `config.auth = 'public'` gets a resolved user, and `config.permission` is
 * checked (the user must hold at least one of the listed permissions).
 */
export function registerAuth(app: FastifyInstance, deps: Deps) {
  if (deps.config.sessionCacheMs > 0 && !caches.has(deps)) {
    const cache = new SessionCache(deps.config.sessionCacheMs);
    caches.set(deps, cache);
    const unwatch = cache.watch(deps.db);
    app.addHook('onClose', async () => {
      await unwatch();
      caches.delete(deps);
    });
  }
  app.decorateRequest('lang', 'en');
  app.decorateRequest('tzOffset', 8);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    req.lang = pickLanguage(req.headers['accept-language']);
    const tz = Number(req.headers['x-timezone-offset']);
    req.tzOffset = Number.isFinite(tz) && tz >= -12 && tz <= 14 ? tz : 8;
  });
  // On request, before the body is read or the input validated: a caller without a token or
  // without the permission learns nothing about the route's input rules (issue 10 route suite).
  app.addHook('onRequest', async (req, reply) => {
    const cfg = req.routeOptions.config;
    // The OpenAPI description is public only when API_DOCS=public (the default outside production).
    const docs = req.url.startsWith('/api/docs');
    if (req.is404 || !req.url.startsWith('/api/') || (docs && (deps.config.apiDocs ?? 'public') === 'public') || cfg.auth === 'public') return;
    // The ops API (/api/ops/, decision 038) signs its operators in through its own hook and tables.
    if (req.routeOptions.url?.startsWith('/api/ops/')) return;
    if (docs) {
      // The description's routes were registered before the app's error handler: answer here.
      return signedIn(req).catch((err: unknown) => {
        if (!(err instanceof AppError)) throw err;
        return reply.status(err.httpStatus).send({ code: err.code, msg: t(req.lang, err.key, err.params), data: null });
      });
    }
    await signedIn(req);
    const need = cfg.permission ? ([] as string[]).concat(cfg.permission) : [];
    if (need.length && !need.some((p) => req.user!.permissions.includes(p))) throw forbidden();
  });
  async function signedIn(req: FastifyRequest) {
    const token = req.headers['x-token'];
    if (typeof token !== 'string' || !token) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
    for (const kind of tokenKinds.values()) {
      if (!token.startsWith(kind.prefix)) continue;
      // E.g. a support operator's read-only view (decision 046): its own table, GET routes of an
      // allow-list only — every state-changing call, download and account/team/key route refused.
      req.user = await kind.resolve(deps, token);
      if (!kind.mayCall(req.method, req.routeOptions.url ?? req.url)) throw kind.refused();
      return;
    }
    req.user = await resolveSession(deps, token);
    // The merchant requires a second factor this user has not enrolled: only what enrolment needs
    // is open (issue 47: not the rest of /api/user/ — listing, adding users, the requirement itself).
    if (req.user.mustEnrolTotp && !ENROLMENT_ROUTES.has(req.routeOptions.url ?? '')) throw new AppError(Code.TOTP_REQUIRED, 'totpRequired', {}, 403);
  }
}

/**
 * A kind of token other than a merchant user's session, told by its prefix, that a module brings
 * to the auth hook (issue 45: infrastructure never imports a module — the ops module registers the
 * support view's tokens here, decision 046).
 */
export interface TokenKind {
  prefix: string;
  /** The caller the token stands for (throws the module's own errors when it is not valid). */
  resolve(deps: Deps, token: string): Promise<SessionUser>;
  /** Whether such a caller may call the route at all (checked before its permission). */
  mayCall(method: string, routeUrl: string): boolean;
  /** The error for a route it may not call. */
  refused(): Error;
}
const tokenKinds = new Map<string, TokenKind>();
/** Registers (or replaces) the token kind of `kind.prefix`. */
export function registerTokenKind(kind: TokenKind): void {
  tokenKinds.set(kind.prefix, kind);
}

/**
 * Routes a signed-in user who must still enrol a second factor may call (issue 47): its own
 * session and profile, the security page's reads, and enrolling TOTP or a passkey (with the
 * password re-check a passkey may ask for). Everything else answers 1109.
 */
const ENROLMENT_ROUTES: ReadonlySet<string> = new Set([
  '/api/user/info',
  '/api/user/logout',
  '/api/user/refreshToken',
  '/api/user/updateTimeZone',
  '/api/user/passwordPolicy',
  '/api/user/security',
  '/api/user/sessions',
  '/api/user/loginHistory',
  '/api/user/checkPassword',
  '/api/user/totp/setup',
  '/api/user/totp/enable',
  '/api/user/passkeys',
  '/api/user/passkey/registerOptions',
  '/api/user/passkey/register',
  '/api/merchant/info',
]);

/** The signed-in caller (routes behind the auth hook). */
export function userOf(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
  return req.user;
}

/**
 * Merchant ids a query may read: all of the caller's scope, or the one asked for when it is in
 * scope, or none at all when it is not (another merchant's data answers as if it did not exist).
 */
export function scopeFor(req: FastifyRequest, requested?: string | null): string[] {
  const scope = userOf(req).scope;
  if (!requested) return scope;
  return scope.includes(requested) ? [requested] : [];
}

/** Throws not-found when `merId` is outside the caller's scope. */
export function assertInScope(req: FastifyRequest, merId: string): void {
  if (!userOf(req).scope.includes(merId)) throw notFound();
}
