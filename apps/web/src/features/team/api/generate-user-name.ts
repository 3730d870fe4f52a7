import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

/** GET /user/generateUserName (spec §7): a free user name, from `base` when given. */
export const generateUserName = (base?: string) => http.call(UsersApi.generateUserName, { base }, { quiet: true });
