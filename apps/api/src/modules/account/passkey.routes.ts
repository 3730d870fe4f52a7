import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountApi, AuthApi, passkeyLoginOptionsSchema, passkeyLoginSchema, passkeyRegisterSchema, passkeyRemoveSchema, passkeyRenameSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { listPasskeys, loginOptions, loginWithPasskey, registerPasskey, registrationOptions, removePasskey, renamePasskey } from './passkey.service';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });
/** 30 calls a minute (the routes' access comes from their descriptors, decision 074). */
const limit30 = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const tokenPair = z.object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number() });

const passkeyItem = z.object({ id: z.number(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
/** WebAuthn options (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON) as @simplewebauthn/server makes them. */
const webauthnOptions = z
  .looseObject({ challenge: z.string() })
  .describe('WebAuthn options JSON: challenge, rp / rpId, user, pubKeyCredParams, allow- / excludeCredentials, timeout, authenticatorSelection');

/** Passkeys (decision 047): registering, naming and removing them, and signing in with one. */
export function passkeyRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- passkeys (decision 047) ----
  r.route({
    ...routeOf(AccountApi.passkeys),
    schema: {
      tags: ['account'],
      summary: "The user's passkeys (name, added, last used), times in the caller's offset",
      response: { 200: envelope(answerOf(AccountApi.passkeys)(z.array(passkeyItem))) },
    },
    handler: async (req) => ok(await listPasskeys(deps, userOf(req), req.tzOffset)),
  });
  r.route({
    ...routeOf(AccountApi.passkeyRegisterOptions, limit30),
    schema: {
      tags: ['account'],
      summary: 'Options for navigator.credentials.create(): needs a password check within 5 minutes (step-up, 403 otherwise); the challenge is kept for this session, 2 minutes, once',
      response: { 200: envelope(answerOf(AccountApi.passkeyRegisterOptions)(webauthnOptions)) },
    },
    handler: async (req) => ok({ ...(await registrationOptions(deps, userOf(req), meta(req))) }),
  });
  r.route({
    ...routeOf(AccountApi.passkeyRegister, limit30),
    schema: {
      tags: ['account'],
      summary: "Store a passkey under a name: the authenticator's answer (JSON text) to this session's challenge; needs a password check within 5 minutes (step-up); audited",
      body: inputOf(AccountApi.passkeyRegister)(passkeyRegisterSchema),
      response: { 200: envelope(answerOf(AccountApi.passkeyRegister)(z.object({ id: z.number(), name: z.string() }).nullable())) },
    },
    handler: async (req) => ok(await registerPasskey(deps, userOf(req), req.body.name, req.body.credential, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.passkeyRename, limit30),
    schema: {
      tags: ['account'],
      summary: "Rename one of the user's passkeys (another user's answers 404); audited",
      body: inputOf(AccountApi.passkeyRename)(passkeyRenameSchema),
      response: { 200: envelope(answerOf(AccountApi.passkeyRename)(z.object({ id: z.number(), name: z.string() }))) },
    },
    handler: async (req) => ok(await renamePasskey(deps, userOf(req), req.body.id, req.body.name, meta(req))),
  });
  r.route({
    ...routeOf(AccountApi.passkeyRemove, limit30),
    schema: {
      tags: ['account'],
      summary: 'Remove a passkey: needs a password check within 5 minutes (step-up); the last strong factor a merchant requires stays; audited',
      body: inputOf(AccountApi.passkeyRemove)(passkeyRemoveSchema),
      response: { 200: envelope(answerOf(AccountApi.passkeyRemove)(z.null())) },
    },
    handler: async (req) => {
      await removePasskey(deps, userOf(req), req.body.id, meta(req));
      return ok(null);
    },
  });
  r.route({
    ...routeOf(AuthApi.passkeyLoginOptions, limit30),
    schema: {
      tags: ['account'],
      summary: "Sign-in with a passkey as the second factor: user name and password (counted toward the lockout), then a challenge bound to this attempt and the user's passkeys",
      body: inputOf(AuthApi.passkeyLoginOptions)(passkeyLoginOptionsSchema),
      response: {
        200: envelope(
          answerOf(AuthApi.passkeyLoginOptions)(
            z
              .object({ attempt: z.string(), options: webauthnOptions })
              .or(z.object({ remaining: z.number() }))
              .or(z.object({ username: z.string() }))
              .nullable(),
          ),
        ),
      },
    },
    handler: async (req) => ok(await loginOptions(deps, req.body, meta(req))),
  });
  r.route({
    ...routeOf(AuthApi.passkeyLogin, limit30),
    schema: {
      tags: ['account'],
      summary: "The authenticator's answer (JSON text) to the attempt's challenge, used once: the session starts; audited",
      body: inputOf(AuthApi.passkeyLogin)(passkeyLoginSchema),
      response: { 200: envelope(answerOf(AuthApi.passkeyLogin)(tokenPair.nullable())) },
    },
    handler: async (req) => ok(await loginWithPasskey(deps, req.body.attempt, req.body.credential, meta(req))),
  });
}
