import { useState } from 'react';
import { Drawer, FloatButton } from 'antd';
import { CustomerServiceOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';

/** GET /chat/token: the widget URL (locale + a chat-only token signed by the server), or null when chat is off. */
const useChat = () =>
  useQuery({
    queryKey: ['chat', 'token'],
    queryFn: ({ signal }) => http.get<{ url: string; expiresAt: number } | null>('/chat/token', undefined, { signal, quiet: true }),
    // The token lives 10 minutes: take a fresh one before it ends.
    refetchInterval: 8 * 60_000,
    staleTime: 8 * 60_000,
    retry: false,
  });

/**
 * The live-chat support bubble (spec §1): shown only when the server has CHAT_WIDGET_URL; opens the
 * external widget in a frame whose URL comes whole from the server, so the session token (kept in
 * this app's cookies and X-Token header) is never part of it.
 */
export function ChatBubble() {
  const { t } = useTranslation('chat');
  const chat = useChat();
  const [open, setOpen] = useState(false);
  if (!chat.data) return null;
  return (
    <>
      <FloatButton icon={<CustomerServiceOutlined />} type="primary" tooltip={t('open')} aria-label={t('open')} onClick={() => setOpen(true)} />
      <Drawer open={open} onClose={() => setOpen(false)} title={t('title')} size="default" styles={{ body: { padding: 0 } }} destroyOnHidden>
        <iframe title={t('title')} src={chat.data.url} style={{ border: 0, width: '100%', height: '100%' }} referrerPolicy="no-referrer" sandbox="allow-scripts allow-same-origin allow-forms allow-popups" />
      </Drawer>
    </>
  );
}
