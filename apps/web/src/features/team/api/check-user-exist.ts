import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

/** GET /user/checkUserExist (spec §7): which of user name, e-mail, phone are taken. */
export const checkUserExist = (q: { userName?: string; email?: string; phone?: string }, signal?: AbortSignal) => http.call(UsersApi.checkUserExist, q, { signal, quiet: true });
