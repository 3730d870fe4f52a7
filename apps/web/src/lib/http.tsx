import { CloseOutlined } from '@ant-design/icons';
import { createClient, type RequestError, type RequestUi } from './request';
import { cookieTokens } from './tokens';
import { feedback } from './feedback';
import { currentLanguage, i18n } from './i18n';
import { browserOffsetHours } from './time';

const ERROR_DELAY_MS = 500;
/** Spec §8: an error message stays 30 s (one policy for the request client and session loading). */
export const ERROR_SECONDS = 30;

let logoutOpen = false;

/** Spec §8, shown with antd: the one place that decides how each failure looks. */
export const antdUi: RequestUi = {
  showError(msg) {
    setTimeout(() => {
      feedback().message.error({ content: msg || i18n.t('common:error.generic'), duration: ERROR_SECONDS, key: `err:${msg}` });
    }, ERROR_DELAY_MS);
  },
  showTransportError(err: RequestError) {
    const { message } = feedback();
    const text =
      err.reason === 'timeout'
        ? i18n.t('common:error.timeout')
        : err.reason === 'network'
          ? i18n.t('common:error.network')
          : i18n.t('common:error.http', { status: err.status, msg: err.message });
    const key = `transport:${text}`;
    message.error({
      key,
      duration: 0,
      content: (
        <span className="closable-message">
          {text}
          <button type="button" className="closable-message__close" aria-label={i18n.t('common:close')} onClick={() => message.destroy(key)}>
            <CloseOutlined />
          </button>
        </span>
      ),
    });
  },
  confirmLogout() {
    if (logoutOpen) return;
    logoutOpen = true;
    feedback().modal.confirm({
      title: i18n.t('common:logout.title'),
      content: i18n.t('common:logout.content'),
      okText: i18n.t('common:logout.relogin'),
      cancelText: i18n.t('common:logout.cancel'),
      onOk() {
        cookieTokens.clear();
        location.reload();
      },
      afterClose() {
        logoutOpen = false;
      },
    });
  },
};

/** The app's request client (see request.ts for the rules). */
export const http = createClient({
  fetch: (...args) => fetch(...args),
  tokens: cookieTokens,
  ui: antdUi,
  language: currentLanguage,
  timezoneOffset: () => browserOffsetHours(),
});

export { RequestError } from './request';
export { saveFile } from './download';
