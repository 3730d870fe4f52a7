import type { TeamUserRow } from '@portal/contract';
import { http } from '../../../lib/http';

/** POST /user/updateUserStatus (spec §7): ACTIVE or DISABLED; disabling ends the user's sessions. */
export const updateUserStatus = (userId: number, status: 'ACTIVE' | 'DISABLED') => http.post<TeamUserRow>('/user/updateUserStatus', { userId, status });

/** POST /user/remove (spec §7): soft delete. */
export const removeUser = (userId: number) => http.post<null>('/user/remove', { userId });

/** POST /user/resetPassword (spec §7): e-mails the user a reset (or activation) link. */
export const resetUserPassword = (userId: number) => http.post<{ sent: 'reset' | 'activation' }>('/user/resetPassword', { userId });
