import type { Role } from '@portal/contract';
import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

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
export const addUser = (body: AddUserBody) => http.call(UsersApi.add, { ...body }, { quiet: true });
