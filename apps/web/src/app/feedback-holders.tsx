import { useEffect, useMemo } from 'react';
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import type { useAppProps } from 'antd/es/app/context';
import { withErrorsClearedBySuccess } from '../lib/feedback';

/**
 * antd's message, modal and notification hooks and their holders, as antd's <App> renders them:
 * loaded by <LazyApp> (lazy-app.tsx) when the screen first shows one.
 */
export default function FeedbackHolders({ onReady }: { onReady: (apis: useAppProps) => void }) {
  const [raw, messageHolder] = useMessage();
  // A success closes the error toasts still shown (issue 53).
  const message = useMemo(() => withErrorsClearedBySuccess(raw), [raw]);
  const [notification, notificationHolder] = useNotification();
  const [modal, modalHolder] = useModal();
  useEffect(() => onReady({ message, notification, modal }), [message, notification, modal, onReady]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
