import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { HomeApi } from '@portal/contract';
import { apiQuery } from '../../lib/api-query';

// FloatButton (with Badge) and Drawer: loaded only when the server has a chat (issue 16, target 6).
const ChatWidget = lazy(() => import('./chat-widget').then((m) => ({ default: m.ChatWidget })));

/** GET /chat/token: the widget URL (locale + a chat-only token signed by the server), or null when chat is off. */
const useChat = () =>
  useQuery({
    ...apiQuery(HomeApi.chatToken, undefined, { quiet: true }),
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
  const chat = useChat();
  if (!chat.data) return null;
  return (
    <Suspense fallback={null}>
      <ChatWidget url={chat.data.url} />
    </Suspense>
  );
}
