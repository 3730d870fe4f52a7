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

type MessageArgs = Parameters<MessageInstance['error']>;

/**
 * `message` whose success closes the error toasts still shown (issue 53: after a wrong then the
 * right refund password, "wrong password" stayed over "refund submitted" for its 30 s — the TOTP
 * set-up and the back office's notices likewise). An error toast without a key gets one, so it can
 * be closed; one the user already closed, or that timed out, is forgotten.
 */
export function withErrorsClearedBySuccess(m: MessageInstance): MessageInstance {
  const shown = new Set<string | number>();
  let n = 0;
  const isArgs = (a: unknown): a is Record<string, unknown> => typeof a === 'object' && a !== null && !('$$typeof' in a) && 'content' in a;
  const error = (...args: MessageArgs) => {
    const [first, duration, onClose] = args as unknown[];
    const props: Record<string, unknown> = isArgs(first) ? { ...first } : { content: first, duration, onClose };
    const key = (props.key as string | number | undefined) ?? `error-toast-${++n}`;
    shown.add(key);
    const closed = props.onClose as (() => void) | undefined;
    return m.error({
      ...(props as object),
      key,
      onClose: () => {
        shown.delete(key);
        closed?.();
      },
    } as Parameters<MessageInstance['error']>[0]);
  };
  const success = (...args: Parameters<MessageInstance['success']>) => {
    for (const key of shown) m.destroy(key);
    shown.clear();
    return m.success(...args);
  };
  return { ...m, error, success } as MessageInstance;
}
