import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, routeOf } from '../../lib/endpoint-route';
import { HomeApi } from '@portal/contract';
import { signChatToken, widgetUrl } from './chat.service';

const chatConfigSchema = z.object({ url: z.string(), expiresAt: z.number() }).nullable();

/** GET /chat/token: the live-chat widget's URL with a fresh chat-only token, or null when chat is off. */
export function chatRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...routeOf(HomeApi.chatToken),
    schema: {
      tags: ['chat'],
      summary: 'Live-chat widget URL for the signed-in user (locale and a 10-minute chat-only HMAC token carrying merchant id and user name); null when CHAT_WIDGET_URL is unset',
      response: { 200: envelope(answerOf(HomeApi.chatToken)(chatConfigSchema)) },
    },
    handler: async (req) => {
      const { chatWidgetUrl, chatSecret } = deps.config;
      if (!chatWidgetUrl || !chatSecret) return ok(null);
      const u = userOf(req);
      const { token, claims } = signChatToken(chatSecret, { mid: u.merId, name: u.username, lang: req.lang }, deps.clock.now());
      return ok({ url: widgetUrl(chatWidgetUrl, req.lang, token), expiresAt: claims.exp * 1000 });
    },
  });
}
