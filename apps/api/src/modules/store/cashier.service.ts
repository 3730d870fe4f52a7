import { Code, type Cashier } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { newToken, safeEqual, sha256 } from '../../lib/crypto';
import { formatInZone } from '../../lib/zone';
import { consumeOAuthState, createOAuthState, wechatClientOf, OAUTH_STATE_SECONDS } from '../account';
import { storeInScope } from './payinstore.service';

/**
 * Cashiers (decision 018): a main user shows a QR that opens WeChat's authorisation; the cashier
 * who scans and agrees is bound to the store (cashierId, WeChat name, binding date) and signed in
 * to the cashier view — the in-store orders of that store, nothing else. A cashier signs in again
 * later with WeChat; unbinding ends the binding and its sessions at once.
 */
const CASHIER_BIND = 'cashier.bind';
const CASHIER_LOGIN = 'cashier.login';
export const CASHIER_SESSION_HOURS = 12;
export const CASHIER_COOKIE = 'mp_cashier';

const wechatOff = () => new AppError(Code.FUNCTION_NOT_ENABLED, 'cashierWechatOff', {}, 200);
const callbackUrl = (base: string) => `${base}/api/cashier/wechat/callback`;

interface CashierRow {
  cashier_id: string;
  store_id: string;
  store_name: string;
  mer_id: string;
  wechat_name: string;
  bound_at: Date;
  bound_by_name: string | null;
}
const SELECT = `SELECT c.cashier_id, c.store_id, s.name AS store_name, s.mer_id, c.wechat_name, c.bound_at, u.username AS bound_by_name
  FROM cashier c JOIN store s ON s.store_id = c.store_id LEFT JOIN app_user u ON u.id = c.bound_by`;

const toCashier = (r: CashierRow, tz: string): Cashier => ({
  cashierId: r.cashier_id,
  storeId: r.store_id,
  storeName: r.store_name,
  wechatName: r.wechat_name,
  bindTime: formatInZone(r.bound_at, tz),
  boundBy: r.bound_by_name,
});

/** The bound cashiers of the caller's stores (one store when given; another merchant's store: 404). */
export async function listCashiers(deps: Deps, user: SessionUser, storeId?: string): Promise<Cashier[]> {
  if (storeId) await storeInScope(deps, storeId, user.scope);
  const { rows } = await deps.db.query<CashierRow>(
    `${SELECT} WHERE c.unbound_at IS NULL AND s.mer_id = ANY($1::text[]) ${storeId ? 'AND c.store_id = $2' : ''} ORDER BY c.bound_at DESC, c.cashier_id DESC`,
    storeId ? [user.scope, storeId] : [user.scope],
  );
  return rows.map((r) => toCashier(r, deps.config.platformTz));
}

/** "Bind a cashier": the WeChat authorisation URL the QR shows, valid 10 minutes, for one store of the caller. */
export async function bindQr(deps: Deps, user: SessionUser, storeId: string, linkBase: string): Promise<{ url: string; expiresIn: number }> {
  const s = await storeInScope(deps, storeId, user.scope);
  const client = wechatClientOf(deps);
  if (!client) throw wechatOff();
  const state = await createOAuthState(deps.db, deps.clock.now(), CASHIER_BIND, { storeId: s.store_id, userId: user.id });
  return { url: client.authorizeUrl(callbackUrl(linkBase), state), expiresIn: OAUTH_STATE_SECONDS };
}

/**
 * The cashier view's "Sign in with WeChat". The state is bound to the browser that asked (login
 * CSRF, as the merchant's WeChat sign-in): a random value goes to it as a cookie, its hash into
 * the state, and the callback signs in only with that cookie. (Binding by QR cannot be: the QR is
 * shown in the administrator's browser and scanned on the cashier's phone — that is its purpose;
 * its state is single-use, expires in 10 minutes and the binding shows in the cashier list.)
 */
export async function loginUrl(deps: Deps, linkBase: string): Promise<{ url: string; browser: string }> {
  const client = wechatClientOf(deps);
  if (!client) throw wechatOff();
  const browser = newToken();
  const state = await createOAuthState(deps.db, deps.clock.now(), CASHIER_LOGIN, { browser: sha256(browser) });
  return { url: client.authorizeUrl(callbackUrl(linkBase), state), browser };
}

/** The cookie carrying the browser's half of a cashier's WeChat sign-in (HttpOnly; Lax, so WeChat's redirect back brings it). */
export const CASHIER_BROWSER_COOKIE = 'mp_cwx';
export function cashierBrowserCookie(value: string, secure: boolean, maxAge = OAUTH_STATE_SECONDS): string {
  return `${CASHIER_BROWSER_COOKIE}=${value}; Path=/api/cashier/wechat; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Unbinds a live cashier of the caller's stores and ends its sessions. Another merchant's: 404. */
export async function unbindCashier(deps: Deps, user: SessionUser, cashierId: string, ip?: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ cashier_id: string; store_id: string; mer_id: string; wechat_name: string }>(
      `UPDATE cashier c SET unbound_at = $3, unbound_by = $4 FROM store s
        WHERE c.cashier_id = $1 AND s.store_id = c.store_id AND s.mer_id = ANY($2::text[]) AND c.unbound_at IS NULL
        RETURNING c.cashier_id, c.store_id, s.mer_id, c.wechat_name`,
      [cashierId, user.scope, now, user.id],
    );
    const c = rows[0];
    if (!c) throw notFound();
    await q.query('UPDATE cashier_session SET revoked_at = $2 WHERE cashier_id = $1 AND revoked_at IS NULL', [cashierId, now]);
    await audit(q, { action: 'cashier.unbind', userId: user.id, username: user.username, merId: c.mer_id, target: c.cashier_id, ip, detail: { storeId: c.store_id, wechatName: c.wechat_name } });
  });
}

async function newSession(deps: Deps, cashierId: string): Promise<string> {
  const token = newToken();
  const now = deps.clock.now();
  await deps.db.query('INSERT INTO cashier_session (token_hash, cashier_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    sha256(token),
    cashierId,
    now,
    new Date(now.getTime() + CASHIER_SESSION_HOURS * 3600_000),
  ]);
  return token;
}

/**
 * WeChat comes back (code, state). A 'cashier.bind' state binds the WeChat account to its store
 * (once per store: binding again signs the same cashier in); a 'cashier.login' state signs in the
 * account's most recent live binding. Returns where to send the browser and, on success, the
 * cashier session token (set as an HttpOnly cookie by the route).
 */
export async function cashierCallback(deps: Deps, code: string, state: string, ip?: string, browser?: string): Promise<{ to: string; token?: string }> {
  const client = wechatClientOf(deps);
  if (!client) return { to: '/pay/cashier?wechat=failed' };
  const now = deps.clock.now();
  const bind = await consumeOAuthState(deps.db, state, CASHIER_BIND, now);
  const login = bind ? null : await consumeOAuthState(deps.db, state, CASHIER_LOGIN, now);
  if (!bind && !login) {
    await audit(deps.db, { action: 'cashier.wechat', outcome: 'failure', ip, detail: { reason: 'state' } });
    return { to: '/pay/cashier?wechat=failed' };
  }
  // A sign-in finishes only in the browser that started it (the state is used up either way).
  if (login && !(browser && typeof login.browser === 'string' && safeEqual(login.browser, sha256(browser)))) {
    await audit(deps.db, { action: 'cashier.login', outcome: 'failure', ip, detail: { reason: 'other-browser' } });
    return { to: '/pay/cashier?wechat=failed' };
  }
  let id;
  try {
    id = await client.identify(code);
  } catch (err) {
    await audit(deps.db, { action: bind ? 'cashier.bind' : 'cashier.login', outcome: 'failure', ip, detail: { reason: String((err as Error).message).slice(0, 200) } });
    return { to: '/pay/cashier?wechat=failed' };
  }
  const name = (id.nickname ?? '').trim() || `WeChat ${id.openid.slice(-4)}`;
  let cashierId: string | null = null;
  if (bind) {
    const storeId = String(bind.storeId);
    const userId = Number(bind.userId);
    cashierId = await deps.db.tx(async (q) => {
      const { rows: s } = await q.query<{ mer_id: string }>('SELECT mer_id FROM store WHERE store_id = $1', [storeId]);
      const { rows } = await q.query<{ cashier_id: string }>(
        `INSERT INTO cashier (store_id, wechat_openid, wechat_name, bound_at, bound_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (store_id, wechat_openid) WHERE unbound_at IS NULL DO UPDATE SET wechat_name = EXCLUDED.wechat_name
         RETURNING cashier_id`,
        [storeId, id.openid, name, now, userId],
      );
      await audit(q, { action: 'cashier.bind', userId, merId: s[0]?.mer_id ?? null, target: rows[0].cashier_id, ip, detail: { storeId, wechatName: name } });
      return rows[0].cashier_id;
    });
  } else {
    const { rows } = await deps.db.query<{ cashier_id: string; mer_id: string }>(
      `SELECT c.cashier_id, s.mer_id FROM cashier c JOIN store s ON s.store_id = c.store_id WHERE c.wechat_openid = $1 AND c.unbound_at IS NULL ORDER BY c.bound_at DESC LIMIT 1`,
      [id.openid],
    );
    cashierId = rows[0]?.cashier_id ?? null;
    await audit(deps.db, {
      action: 'cashier.login',
      outcome: cashierId ? 'success' : 'failure',
      merId: rows[0]?.mer_id ?? null,
      target: cashierId,
      ip,
      detail: cashierId ? {} : { reason: 'not-bound' },
    });
    if (!cashierId) return { to: '/pay/cashier?wechat=not-bound' };
  }
  return { to: '/pay/cashier', token: await newSession(deps, cashierId) };
}

export interface CashierSession {
  cashierId: string;
  storeId: string;
  storeName: string;
  merId: string;
  merName: string;
  wechatName: string;
}

/** The cashier behind a session cookie: live session of a live binding, else null. */
export async function cashierOf(deps: Deps, token: string | undefined): Promise<CashierSession | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const { rows } = await deps.db.query<{ cashier_id: string; store_id: string; store_name: string; mer_id: string; mer_name: string; wechat_name: string }>(
    `SELECT c.cashier_id, c.store_id, s.name AS store_name, s.mer_id, m.name AS mer_name, c.wechat_name
       FROM cashier_session cs JOIN cashier c ON c.cashier_id = cs.cashier_id JOIN store s ON s.store_id = c.store_id JOIN merchant m ON m.mer_id = s.mer_id
      WHERE cs.token_hash = $1 AND cs.revoked_at IS NULL AND cs.expires_at > $2 AND c.unbound_at IS NULL`,
    [sha256(token), deps.clock.now()],
  );
  const r = rows[0];
  return r ? { cashierId: r.cashier_id, storeId: r.store_id, storeName: r.store_name, merId: r.mer_id, merName: r.mer_name, wechatName: r.wechat_name } : null;
}

export async function endCashierSession(deps: Deps, token: string): Promise<void> {
  await deps.db.query('UPDATE cashier_session SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [sha256(token), deps.clock.now()]);
}
