import { http } from '../../../lib/http';
import { UsersApi, type AddUserBody } from '@portal/contract';
export type { AddUserBody } from '@portal/contract';

/** POST /user/add (spec §7): the new user gets the activation e-mail. */
export const addUser = (body: AddUserBody) => http.call(UsersApi.add, { ...body }, { quiet: true });
