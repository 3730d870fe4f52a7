import { createHmac } from 'node:crypto';
import type { Language } from '@portal/contract';

/** Life of a chat token: 10 minutes. */
export const CHAT_TOKEN_SECONDS = 600;

export interface ChatClaims {
  /** Merchant id. */
  mid: string;
  /** User name. */
  name: string;
  lang: Language;
  /** Issued at / expires at, seconds since the epoch. */
  iat: number;
  exp: number;
  /** What the token is for: only the chat widget. */
  aud: 'chat';
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * A chat-only token: `base64url(JSON claims).base64url(HMAC-SHA256(CHAT_SECRET, first part))`.
 * It carries the merchant id and user name for the support agent, lives 10 minutes, and is
 * signed with a key of its own: it is never the session token and opens nothing in the portal.
 */
export function signChatToken(secret: string, c: Omit<ChatClaims, 'iat' | 'exp' | 'aud'>, now: Date): { token: string; claims: ChatClaims } {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: ChatClaims = { ...c, iat, exp: iat + CHAT_TOKEN_SECONDS, aud: 'chat' };
  const body = b64(JSON.stringify(claims));
  return { token: `${body}.${b64(createHmac('sha256', secret).update(body).digest())}`, claims };
}

/** The widget side's check (used by tests and documented for the chat service). */
export function verifyChatToken(secret: string, token: string, now: Date): ChatClaims | null {
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const want = b64(createHmac('sha256', secret).update(body).digest());
  if (want.length !== sig.length || !Buffer.from(want).equals(Buffer.from(sig))) return null;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as ChatClaims;
  return claims.aud === 'chat' && claims.exp > now.getTime() / 1000 ? claims : null;
}

/** The widget URL with the language and the chat token as query values (spec §1). */
export function widgetUrl(base: string, lang: Language, token: string): string {
  const u = new URL(base);
  u.searchParams.set('locale', lang);
  u.searchParams.set('token', token);
  return u.toString();
}
