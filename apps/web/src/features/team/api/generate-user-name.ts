import { http } from '../../../lib/http';

/** GET /user/generateUserName (spec §7): a free user name, from `base` when given. */
export const generateUserName = (base?: string) => http.get<string>('/user/generateUserName', { base }, { quiet: true });
