/**
 * A sign-in realm (decision 038): the tables one kind of account signs in with. Merchant users and
 * the provider's operators run the same sign-in, lockout, second-factor, session, refresh, idle and
 * logout code (login.service, session.service, totp, plugins/auth); only the tables differ, so an
 * operator's token is never found by the merchant API and a merchant's never by the ops API.
 */
export interface Realm {
  id: 'merchant' | 'operator';
  /** Accounts: id, username, password_hash, email, status, failed_logins, locked_until, password_changed_at, totp_*. */
  users: string;
  sessions: string;
  accessTokens: string;
  refreshTokens: string;
  recoveryCodes: string;
  /** Tries and locks of names that are no usable account (decision 036). */
  nameAttempts: string;
  /** Single-use e-mailed links (activation, reset). */
  links: string;
  /** The merchant column of an account row (operators have none). */
  merColumn: string;
  /** The second factor is the authenticator only (no e-mailed code): mandatory TOTP. */
  totpOnly: boolean;
  /** Who an audit entry names: the account's id goes to user_id (merchants) or operator_id (operators). */
  actor(
    u: { id: number; username: string; mer_id?: string | null } | undefined,
    username?: string,
  ): {
    userId?: number | null;
    operatorId?: number | null;
    username?: string | null;
    merId?: string | null;
  };
}

export const MERCHANT_REALM: Realm = {
  id: 'merchant',
  users: 'app_user',
  sessions: 'user_session',
  accessTokens: 'access_token',
  refreshTokens: 'refresh_token',
  recoveryCodes: 'totp_recovery_code',
  nameAttempts: 'login_name_attempt',
  links: 'account_link',
  merColumn: 'mer_id',
  totpOnly: false,
  actor: (u, username) => ({ userId: u?.id, username: username ?? u?.username, merId: u?.mer_id }),
};

export const OPERATOR_REALM: Realm = {
  id: 'operator',
  users: 'ops_operator',
  sessions: 'ops_session',
  accessTokens: 'ops_access_token',
  refreshTokens: 'ops_refresh_token',
  recoveryCodes: 'ops_recovery_code',
  nameAttempts: 'ops_name_attempt',
  links: 'ops_link',
  merColumn: 'NULL::text',
  totpOnly: true,
  actor: (u, username) => ({ userId: null, operatorId: u?.id ?? null, username: username ?? u?.username, merId: null }),
};

/** The merchant column of an account row read under a table alias. */
export const merOf = (realm: Realm, alias: string) => (realm.merColumn === 'mer_id' ? `${alias}.mer_id` : realm.merColumn);
