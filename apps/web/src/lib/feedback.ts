import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';

/**
 * antd's message and modal bound to the app's context (theme, locale), registered by
 * <FeedbackBridge/> inside antd's <App>. Non-React code (the request client) shows feedback here.
 */
let message: MessageInstance | null = null;
let modal: ModalApi | null = null;

export function bindFeedback(m: MessageInstance, d: ModalApi): void {
  message = m;
  modal = d;
}

export function feedback(): { message: MessageInstance; modal: ModalApi } {
  if (!message || !modal) throw new Error('feedback used before <FeedbackBridge/> mounted');
  return { message, modal };
}
