import { http } from '../../../lib/http';
import { UsersApi, type UpdateUserBody } from '@portal/contract';
export type { UpdateUserBody } from '@portal/contract';

/** POST /user/update: a user's role, custom permissions and merchants (the rules of /user/add). */
export const updateUser = (body: UpdateUserBody) => http.call(UsersApi.update, { ...body }, { quiet: true });
