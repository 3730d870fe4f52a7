import type { Language } from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps } from '../../plugins/context';

/** Who asked for a link and from where (the audit entry of the mail). */
interface LinkRequest {
  ip?: string;
  userAgent?: string;
  byUserId?: number;
}

/**
 * The e-mailed links user management sends (issue 45 §2: the team names no module it serves): an
 * added user's activation link, a user's password-reset link — in the caller's transaction `q`,
 * throwing when the mail cannot go. The account module, which owns the links, registers them from
 * its manifest's `init`.
 */
export interface UserLinks {
  sendActivation: (deps: Deps, q: Queryable, userId: number, lang: Language, meta: LinkRequest) => Promise<void>;
  sendPasswordReset: (deps: Deps, q: Queryable, userId: number, lang: Language, meta: LinkRequest) => Promise<void>;
}

let links: UserLinks | null = null;

/** Registers (or replaces) the links' sender. */
export function registerUserLinks(l: UserLinks): void {
  links = l;
}

/** The registered sender; none is a defect (the account module was not initialised). */
export function userLinks(): UserLinks {
  if (!links) throw new Error("team: no module registered the users' e-mailed links (registerUserLinks; the modules were not initialised)");
  return links;
}
