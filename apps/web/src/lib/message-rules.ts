import type { RequestError } from './request';
import { i18n } from './i18n';

/**
 * Spec §8's message rules, shared by both ways of drawing them (lib/light-ui.ts before antd has
 * loaded, app/antd-ui.tsx after): an error appears after 500 ms and stays 30 s; a transport error
 * says what failed.
 */
export const ERROR_DELAY_MS = 500;
export const ERROR_SECONDS = 30;

export function transportErrorText(err: RequestError): string {
  if (err.reason === 'timeout') return i18n.t('common:error.timeout');
  if (err.reason === 'network') return i18n.t('common:error.network');
  return i18n.t('common:error.http', { status: err.status, msg: err.message });
}
