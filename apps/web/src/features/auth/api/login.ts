import type { LoginResult } from '@portal/contract';
import { http } from '../../../lib/http';

/** POST /user/getEmailCode (form username): e-mails a 6-digit sign-in code. */
export const getEmailCode = (username: string) => http.post<{ resendAfter: number; expiresIn: number; totp?: boolean }>('/user/getEmailCode', { username });

/** POST /user/login (form username, password, verifyCode). */
export const login = (input: { username: string; password: string; verifyCode: string }) => http.post<LoginResult>('/user/login', input);
