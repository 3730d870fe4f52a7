import type { Role } from '@portal/contract';
import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

export interface UpdateUserBody {
  userId: number;
  merIds: string[];
  role: Role;
  /** CUSTOM only: a named role instead of permissions. */
  roleId?: number;
  permissions?: string[];
  /** The last day of access (yyyy-MM-dd, platform zone); '' for none (decision 048). */
  accessEndsOn?: string;
}

/** POST /user/update: a user's role, custom permissions and merchants (the rules of /user/add). */
export const updateUser = (body: UpdateUserBody) => http.call(UsersApi.update, { ...body }, { quiet: true });
