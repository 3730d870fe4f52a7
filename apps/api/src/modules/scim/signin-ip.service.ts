import ipaddr from 'ipaddr.js';
import { Code, type SignInIp, type SignInIpSave } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, forbidden } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { formatInZone } from '../txn';

/**
 * The sign-in IP allow-list per merchant group (issue 51, decision 065). A user of the group (or of
 * one of its sub-merchants) signs in only from an address in its list; an empty list lets any
 * address in. The address is the request's `req.ip`: Fastify's reading under the trusted-proxy
 * rules (TRUST_PROXY) — never a header taken as it comes.
 */
export const SignInIpAudit = { saved: 'signin_ip.save', refused: 'auth.login.ip_refused' } as const;

/** The address as ipaddr.js reads it, an IPv4-mapped IPv6 one (`::ffff:1.2.3.4`) as plain IPv4. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip.replace(/%.*$/, ''));
  } catch {
    return null;
  }
}

/** A range of the list (the API keys' `isCidr` syntax: an address, or address/bits) as ipaddr.js's pair. */
function parseRange(r: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (r.includes('/')) {
      const [a, bits] = ipaddr.parseCIDR(r);
      // A mapped IPv6 range of IPv4 (::ffff:10.0.0.0/104) matches the IPv4 addresses it holds.
      if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(a as ipaddr.IPv6).toIPv4Address(), bits - 96];
      return [a, bits];
    }
    const a = ipaddr.process(r);
    return [a, a.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** Whether `ip` is in one of `ranges` (IPv4 and IPv6, CIDR or single addresses); an empty list allows all. */
export function ipInRanges(ranges: readonly string[], ip: string): boolean {
  if (!ranges.length) return true;
  const addr = parseAddress(ip);
  if (!addr) return false;
  return ranges.some((r) => {
    const range = parseRange(r);
    return !!range && range[0].kind() === addr.kind() && addr.match(range as [ipaddr.IPv4, number]);
  });
}

/** The merchant whose policy a merchant follows: its group's, or its own. */
const GROUP_OF = `(SELECT COALESCE(m.parent_id, m.mer_id) FROM merchant m WHERE m.mer_id = $1)`;

async function rangesOf(q: Queryable, merId: string): Promise<string[]> {
  const { rows } = await q.query<{ ranges: string[] }>(`SELECT ranges FROM signin_ip_allow WHERE mer_id = ${GROUP_OF}`, [merId]);
  return rows[0]?.ranges ?? [];
}

/**
 * Refuses a sign-in from outside the user's merchant group's allow-list: audited (the address,
 * the factor) and answered with the four-language message. Called by every sign-in path once the
 * first factor is proven (so the list tells nothing to someone without the password) and again
 * where the session starts.
 */
export async function checkSignInIp(deps: Deps, user: { id: number; username: string; mer_id: string }, meta: { ip?: string; userAgent?: string }, where: string): Promise<void> {
  const ranges = await rangesOf(deps.db, user.mer_id);
  if (!ranges.length) return;
  const ip = meta.ip ?? '';
  if (ipInRanges(ranges, ip)) return;
  const shown = parseAddress(ip)?.toString() ?? ip;
  await audit(deps.db, {
    action: SignInIpAudit.refused,
    outcome: 'failure',
    userId: user.id,
    username: user.username,
    merId: user.mer_id,
    detail: { reason: 'ip-not-allowed', where },
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  throw new AppError(Code.FORBIDDEN, 'signInIpRefused', { ip: shown }, 200);
}

function assertAdmin(caller: SessionUser): void {
  if (caller.userType !== 'MAIN' || !caller.userAdmin) throw forbidden();
}

/** The allow-list of the caller's merchant group, and the caller's own address. */
export async function getSignInIp(deps: Deps, caller: SessionUser, ip: string): Promise<SignInIp> {
  assertAdmin(caller);
  const { rows } = await deps.db.query<{ ranges: string[]; updated_at: Date; username: string | null }>(
    `SELECT a.ranges, a.updated_at, u.username FROM signin_ip_allow a LEFT JOIN app_user u ON u.id = a.updated_by WHERE a.mer_id = ${GROUP_OF}`,
    [caller.merId],
  );
  const r = rows[0];
  return {
    ranges: r?.ranges ?? [],
    yourIp: parseAddress(ip)?.toString() ?? ip,
    updatedAt: r ? formatInZone(r.updated_at, caller.timeZone ?? deps.config.platformTz) : null,
    updatedBy: r?.username ?? null,
  };
}

/**
 * Saves the list of the caller's merchant group (administrators of the group's own merchant, or of
 * an independent one). The lock-out guard: a non-empty list must hold the saving administrator's own
 * address. Audited with before and after.
 */
export async function saveSignInIp(deps: Deps, caller: SessionUser, input: SignInIpSave, meta: { ip: string; userAgent?: string }): Promise<SignInIp> {
  assertAdmin(caller);
  const ranges = [...new Set(input.ranges.map((r) => r.toLowerCase()))];
  if (ranges.some((r) => !parseRange(r))) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'ranges' }, 400);
  if (ranges.length && !ipInRanges(ranges, meta.ip)) {
    throw new AppError(Code.BAD_REQUEST, 'signInIpLockout', { ip: parseAddress(meta.ip)?.toString() ?? meta.ip }, 400, { field: 'ranges' });
  }
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ group_id: string }>(`SELECT ${GROUP_OF} AS group_id`, [caller.merId]);
    const group = rows[0].group_id;
    // Only the group's own administrators set the group's policy (a sub-merchant follows it).
    if (group !== caller.merId) throw forbidden();
    const before = (await q.query<{ ranges: string[] }>('SELECT ranges FROM signin_ip_allow WHERE mer_id = $1 FOR UPDATE', [group])).rows[0]?.ranges ?? [];
    await q.query(
      `INSERT INTO signin_ip_allow (mer_id, ranges, updated_by, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (mer_id) DO UPDATE SET ranges = $2, updated_by = $3, updated_at = $4`,
      [group, ranges, caller.id, now],
    );
    await audit(q, {
      action: SignInIpAudit.saved,
      userId: caller.id,
      username: caller.username,
      merId: group,
      detail: { before, after: ranges },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
  return getSignInIp(deps, caller, meta.ip);
}
