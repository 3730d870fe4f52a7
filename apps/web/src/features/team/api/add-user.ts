import type { Role, TeamUserRow } from '@portal/contract';
import { http } from '../../../lib/http';

export interface AddUserBody {
  userName: string;
  email: string;
  phone?: string;
  merIds: string[];
  role: Role;
  /** CUSTOM only: a named role instead of permissions. */
  roleId?: number;
  permissions?: string[];
  /** The last day of access (yyyy-MM-dd, platform zone); '' for none (decision 048). */
  accessEndsOn?: string;
}

/** POST /user/add (spec §7): the new user gets the activation e-mail. */
export const addUser = (body: AddUserBody) => http.post<TeamUserRow>('/user/add', { ...body }, { quiet: true });
