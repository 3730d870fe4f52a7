import { Code } from '@portal/contract';
import type { SessionUser } from '../../plugins/context';
import { AppError } from '../../lib/errors';

/** The request's address and browser, for the audit entry of a team change. */
export interface Meta {
  ip?: string;
  userAgent?: string;
}

/** Only a main user manages the team and its roles. */
export function assertMainUser(caller: SessionUser): void {
  if (caller.userType !== 'MAIN') throw new AppError(Code.FORBIDDEN, 'mainUserOnly', {}, 403);
}
