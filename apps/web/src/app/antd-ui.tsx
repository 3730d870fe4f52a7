import { CloseOutlined } from '@ant-design/icons';
import type { RequestError, RequestUi } from '../lib/request';
import { cookieTokens } from '../lib/tokens';
import { feedback } from '../lib/feedback';
import { i18n } from '../lib/i18n';
import { ERROR_DELAY_MS, ERROR_SECONDS, transportErrorText } from '../lib/message-rules';
import { lightUi } from '../lib/light-ui';
import { loadFeedback } from './lazy-app';

let logoutOpen = false;

/** Spec §8 with antd's message and modal (before the providers mount: lib/light-ui.ts). */
const shownWithAntd: RequestUi = {
  showError(msg) {
    setTimeout(() => {
      feedback().message.error({ content: msg || i18n.t('common:error.generic'), duration: ERROR_SECONDS, key: `err:${msg}` });
    }, ERROR_DELAY_MS);
  },
  showTransportError(err: RequestError) {
    const { message } = feedback();
    const text = transportErrorText(err);
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

/**
 * The request client's feedback once the providers mount: antd's, whose code loads with the first
 * message (app/lazy-app.tsx); when it cannot load (the network is gone) the light one says it.
 */
export const antdUi: RequestUi = {
  showError: (msg) =>
    void loadFeedback().then(
      () => shownWithAntd.showError(msg),
      () => lightUi.showError(msg),
    ),
  showTransportError: (err) =>
    void loadFeedback().then(
      () => shownWithAntd.showTransportError(err),
      () => lightUi.showTransportError(err),
    ),
  confirmLogout: () =>
    void loadFeedback().then(
      () => shownWithAntd.confirmLogout(),
      () => lightUi.confirmLogout(),
    ),
};
