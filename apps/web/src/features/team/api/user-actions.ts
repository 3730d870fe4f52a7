import { http } from '../../../lib/http';
import { UsersApi } from '@portal/contract';

/**
 * POST /user/updateUserStatus (spec §7): ACTIVE or DISABLED; disabling ends the user's sessions.
 * Re-enabling a user beyond read-only may wait for approval (code 1234, issue 47): quiet, the caller tells it.
 */
export const updateUserStatus = (userId: number, status: 'ACTIVE' | 'DISABLED') => http.call(UsersApi.updateUserStatus, { userId, status }, { quiet: true });

/** POST /user/remove (spec §7): soft delete. */
export const removeUser = (userId: number) => http.call(UsersApi.remove, { userId });

/** POST /user/resetPassword (spec §7): e-mails the user a reset (or activation) link. */
export const resetUserPassword = (userId: number) => http.call(UsersApi.resetPassword, { userId });
