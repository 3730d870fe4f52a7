/** The group's verified e-mail domains: claimed with a token, proved by a DNS TXT record, removed. */
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { Code, type SsoDomainRow } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Meta } from '../user';
import { callerGroup, iso, recordName, recordValue, SsoAudit, who } from './sso.provider';

/** Claims a domain: a token to publish as a TXT record; verified by `verifyDomain`. */
export async function claimDomain(deps: Deps, caller: SessionUser, domain: string, meta: Meta): Promise<SsoDomainRow> {
  const g = await callerGroup(deps, caller);
  const now = deps.clock.now();
  const taken = await deps.db.query('SELECT 1 FROM sso_domain WHERE domain = $1 AND verified_at IS NOT NULL AND mer_id <> $2', [domain, g]);
  if (taken.rows[0]) throw new AppError(Code.CONFLICT, 'ssoDomainTaken', { domain }, 409);
  const row = await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ id: number; domain: string; token: string; verified_at: Date | null; checked_at: Date | null }>(
      `INSERT INTO sso_domain (mer_id, domain, token, created_at) VALUES ($1,$2,$3,$4)
       ON CONFLICT (mer_id, domain) DO UPDATE SET domain = EXCLUDED.domain RETURNING id, domain, token, verified_at, checked_at`,
      [g, domain, randomBytes(18).toString('base64url'), now],
    );
    await audit(q, { action: SsoAudit.domainClaimed, ...who(caller, meta), merId: g, target: domain });
    return rows[0];
  });
  return {
    id: row.id,
    domain: row.domain,
    recordName: recordName(row.domain),
    recordValue: recordValue(row.token),
    verified: !!row.verified_at,
    verifiedAt: iso(row.verified_at),
    checkedAt: iso(row.checked_at),
  };
}

/** The TXT records at `name` (SSO_DNS_SERVERS, else the system's resolvers); none when the name does not exist. */
export async function txtRecords(deps: Deps, name: string): Promise<string[]> {
  const r = new Resolver({ timeout: 3000, tries: 2 });
  if (deps.config.ssoDnsServers?.length) r.setServers(deps.config.ssoDnsServers);
  try {
    return (await r.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
}

/** Looks the domain's TXT record up (no transaction open meanwhile) and marks it verified when it holds the token. */
export async function verifyDomain(deps: Deps, caller: SessionUser, id: number, meta: Meta): Promise<SsoDomainRow> {
  const g = await callerGroup(deps, caller);
  const { rows } = await deps.db.query<{ id: number; domain: string; token: string; verified_at: Date | null }>('SELECT id, domain, token, verified_at FROM sso_domain WHERE id = $1 AND mer_id = $2', [
    id,
    g,
  ]);
  const d = rows[0];
  if (!d) throw notFound();
  const name = recordName(d.domain);
  const value = recordValue(d.token);
  let found: string[] = [];
  try {
    found = await txtRecords(deps, name);
  } catch {
    found = [];
  }
  const now = deps.clock.now();
  const proved = found.includes(value);
  const out = await deps.db.tx(async (q) => {
    if (proved) {
      const other = await q.query('SELECT 1 FROM sso_domain WHERE domain = $1 AND verified_at IS NOT NULL AND mer_id <> $2', [d.domain, g]);
      if (other.rows[0]) throw new AppError(Code.CONFLICT, 'ssoDomainTaken', { domain: d.domain }, 409);
    }
    const { rows: r } = await q.query<{ verified_at: Date | null; checked_at: Date }>(
      `UPDATE sso_domain SET checked_at = $2, verified_at = CASE WHEN $3::boolean THEN COALESCE(verified_at, $2) ELSE verified_at END WHERE id = $1 RETURNING verified_at, checked_at`,
      [d.id, now, proved],
    );
    await audit(q, { action: SsoAudit.domainVerified, outcome: proved ? 'success' : 'failure', ...who(caller, meta), merId: g, target: d.domain, detail: { records: found.length } });
    return r[0];
  });
  if (!out.verified_at) throw new AppError(Code.BAD_REQUEST, 'ssoDomainNotProved', { name, value }, 200);
  return { id: d.id, domain: d.domain, recordName: name, recordValue: value, verified: true, verifiedAt: iso(out.verified_at), checkedAt: iso(out.checked_at) };
}

export async function removeDomain(deps: Deps, caller: SessionUser, id: number, meta: Meta): Promise<void> {
  const g = await callerGroup(deps, caller);
  await deps.db.tx(async (q) => {
    const { rows } = await q.query<{ domain: string }>('DELETE FROM sso_domain WHERE id = $1 AND mer_id = $2 RETURNING domain', [id, g]);
    if (!rows[0]) throw notFound();
    await audit(q, { action: SsoAudit.domainRemoved, ...who(caller, meta), merId: g, target: rows[0].domain });
  });
}
