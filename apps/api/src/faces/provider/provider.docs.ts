import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import { Code, pickLanguage } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { HEADERS, authenticate } from '../../modules/gateway/gateway.service';
import { resolveOperator } from '../../modules/ops/ops.auth';

/**
 * The provider API's document (/api/provider/docs) under API_DOCS (issue 47: every OpenAPI
 * document follows it): 'public' for anyone; 'auth' for a signed-in back-office operator (its
 * X-Token) or a gateway connection signing the GET as it signs its reports (the X-Gateway-*
 * headers, empty body); 'off' not served. Registered in the provider face's context, so its hook
 * covers the document's routes only; the answers use the envelope, as the provider API does.
 */
export async function registerProviderDocs(f: FastifyInstance, deps: Deps): Promise<void> {
  const mode = deps.config.apiDocs ?? 'public';
  if (mode === 'off') return;
  if (mode === 'auth') {
    f.addHook('onRequest', async (req, reply) => {
      if (!req.url.startsWith('/api/provider/docs')) return;
      const lang = pickLanguage(req.headers['accept-language']);
      try {
        if (req.headers[HEADERS.keyId] !== undefined) {
          await authenticate(
            deps.db,
            deps.config,
            {
              keyId: req.headers[HEADERS.keyId],
              timestamp: req.headers[HEADERS.timestamp],
              signature: req.headers[HEADERS.signature],
              method: req.method,
              path: req.url,
              body: '',
            },
            deps.clock.now(),
          );
        } else {
          const token = req.headers['x-token'];
          if (typeof token !== 'string' || !token) throw new AppError(Code.NOT_LOGGED_IN, 'notLoggedIn', {}, 401);
          await resolveOperator(deps, token);
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return reply.status(err.httpStatus).send({ code: err.code, msg: t(lang, err.key, err.params), data: null });
      }
    });
  }
  await f.register(swaggerUi, { routePrefix: '/api/provider/docs', uiConfig: { docExpansion: 'list' }, staticCSP: true });
}
