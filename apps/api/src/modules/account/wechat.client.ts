import type { WechatConfig } from '../../config';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';
import { newToken, sha256 } from '../../lib/crypto';

/**
 * WeChat website-application OAuth2 (authorization code), in WeChat's own shapes:
 *   authorize  WECHAT_AUTH_URL?appid&redirect_uri&response_type=code&scope=snsapi_login&state#wechat_redirect
 *   token      WECHAT_TOKEN_URL?appid&secret&code&grant_type=authorization_code → {access_token, openid, unionid?}
 *   userinfo   WECHAT_USERINFO_URL?access_token&openid → {openid, nickname, unionid?}
 * Errors come back as {errcode, errmsg}. Nothing here knows what the round trip is for: the
 * caller keeps its purpose and data in the state (createOAuthState / consumeOAuthState).
 */
export interface WechatIdentity {
  openid: string;
  unionid: string | null;
  nickname: string | null;
}

class WechatError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

export class WechatClient {
  constructor(
    private readonly cfg: WechatConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Where to send the browser; WeChat comes back to `redirectUri` with `code` and `state`. */
  authorizeUrl(redirectUri: string, state: string, scope = 'snsapi_login'): string {
    const u = new URL(this.cfg.authUrl);
    u.searchParams.set('appid', this.cfg.appId);
    u.searchParams.set('redirect_uri', redirectUri);
    u.searchParams.set('response_type', 'code');
    u.searchParams.set('scope', scope);
    u.searchParams.set('state', state);
    u.hash = 'wechat_redirect';
    return u.toString();
  }

  private async getJson(url: URL): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (err) {
      throw new WechatError(`WeChat unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) throw new WechatError(`WeChat answered HTTP ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new WechatError('WeChat answered something that is not JSON');
    }
    if (!body || typeof body !== 'object') throw new WechatError('WeChat answered something that is not an object');
    const b = body as Record<string, unknown>;
    if (typeof b.errcode === 'number' && b.errcode !== 0) throw new WechatError(`WeChat error ${b.errcode}: ${String(b.errmsg ?? '')}`, b.errcode);
    return b;
  }

  /** code → access_token, openid, unionid (a code works once). */
  async exchangeCode(code: string): Promise<{ accessToken: string; openid: string; unionid: string | null }> {
    const u = new URL(this.cfg.tokenUrl);
    u.searchParams.set('appid', this.cfg.appId);
    u.searchParams.set('secret', this.cfg.appSecret);
    u.searchParams.set('code', code);
    u.searchParams.set('grant_type', 'authorization_code');
    const b = await this.getJson(u);
    if (typeof b.access_token !== 'string' || typeof b.openid !== 'string' || !b.openid) throw new WechatError('WeChat token answer without access_token/openid');
    return { accessToken: b.access_token, openid: b.openid, unionid: typeof b.unionid === 'string' ? b.unionid : null };
  }

  async userinfo(accessToken: string, openid: string): Promise<WechatIdentity> {
    const u = new URL(this.cfg.userinfoUrl);
    u.searchParams.set('access_token', accessToken);
    u.searchParams.set('openid', openid);
    const b = await this.getJson(u);
    if (b.openid !== openid) throw new WechatError('WeChat userinfo for another openid');
    return { openid, unionid: typeof b.unionid === 'string' ? b.unionid : null, nickname: typeof b.nickname === 'string' ? b.nickname.slice(0, 100) : null };
  }

  /** The whole back-channel half: code → identity (openid, unionid, nickname). */
  async identify(code: string): Promise<WechatIdentity> {
    const tok = await this.exchangeCode(code);
    const info = await this.userinfo(tok.accessToken, tok.openid);
    return { ...info, unionid: info.unionid ?? tok.unionid };
  }
}

/** The configured client, or null when WECHAT_* is not (fully) set: WeChat is then hidden. */
export function wechatClientOf(deps: Deps): WechatClient | null {
  return deps.config.wechat ? new WechatClient(deps.config.wechat) : null;
}

export const OAUTH_STATE_SECONDS = 10 * 60;

/**
 * A fresh OAuth2 state for one round trip: 256 random bits, stored hashed with the caller's
 * `purpose` and `data` (e.g. {userId} when binding, {cashierId} for a cashier), 10 minutes.
 */
export async function createOAuthState(q: Queryable, now: Date, purpose: string, data: Record<string, unknown> = {}): Promise<string> {
  const state = newToken();
  await q.query('DELETE FROM oauth_state WHERE expires_at < $1', [new Date(now.getTime() - 24 * 3600 * 1000)]);
  await q.query('INSERT INTO oauth_state (state_hash, purpose, data, created_at, expires_at) VALUES ($1,$2,$3,$4,$5)', [
    sha256(state),
    purpose,
    JSON.stringify(data),
    now,
    new Date(now.getTime() + OAUTH_STATE_SECONDS * 1000),
  ]);
  return state;
}

/** A state's data when it exists, has this purpose, is unused and fresh — without using it up; else null. */
export async function peekOAuthState(q: Queryable, state: string, purpose: string, now: Date): Promise<Record<string, unknown> | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(state)) return null;
  const { rows } = await q.query<{ data: Record<string, unknown> | string }>(`SELECT data FROM oauth_state WHERE state_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`, [
    sha256(state),
    purpose,
    now,
  ]);
  if (!rows[0]) return null;
  const d = rows[0].data;
  return typeof d === 'string' ? JSON.parse(d) : d;
}

/** Uses a state once: its data when it exists, has this purpose, is unused and fresh; else null. */
export async function consumeOAuthState(q: Queryable, state: string, purpose: string, now: Date): Promise<Record<string, unknown> | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(state)) return null;
  const { rows } = await q.query<{ data: Record<string, unknown> | string }>(
    `UPDATE oauth_state SET used_at = $3 WHERE state_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING data`,
    [sha256(state), purpose, now],
  );
  if (!rows[0]) return null;
  const d = rows[0].data;
  return typeof d === 'string' ? JSON.parse(d) : d;
}
