import type { z } from 'zod';
import type { Access, AnyEndpoint, EndpointIn, EndpointOut, EndpointRefusal, OpsRole } from '@portal/contract';

/**
 * A portal route from its descriptor in the endpoint table (issue 45 §3, decision 074):
 *
 *   r.route({ ...routeOf(NoticeApi.list), schema: { querystring: inputOf(NoticeApi.list)(pageQuerySchema),
 *     response: { 200: envelope(answerOf(NoticeApi.list)(noticeRows)) } }, handler })
 *
 * The method, path and access come from the descriptor, so the route table and the web cannot
 * drift apart (apps/api/test/security/routes.test.ts checks the rest at run time); `inputOf` and
 * `answerOf` fail to compile when the zod schema's types and the descriptor's disagree.
 */
export function routeOf<E extends AnyEndpoint>(e: E, config: { rateLimit?: { max: number; timeWindow: string } } = {}) {
  return { method: e.method, url: e.path, config: { ...accessConfig(e.access, e.path.startsWith('/api/ops/')), ...config, [FROM_ENDPOINT]: e } };
}

/**
 * The mark routeOf leaves on a route's config: the descriptor it was registered from. A symbol, so
 * nothing that reads or prints the config sees it; Fastify's copy of the config keeps it. The
 * route-table suites fail on a portal or back-office route without it (decision 074).
 */
export const FROM_ENDPOINT: unique symbol = Symbol.for('portal.routeOf');

/** The descriptor a route was registered from (routeOf), or undefined for a route that wrote its own path and config. */
export const endpointOfRoute = (config: unknown): AnyEndpoint | undefined =>
  config && typeof config === 'object' ? ((config as { [FROM_ENDPOINT]?: AnyEndpoint })[FROM_ENDPOINT] ?? undefined) : undefined;

/** The route config of an access: the portal's auth/permission, or the back office's opsRoles (its own realm, decision 038). */
function accessConfig(a: Access, ops: boolean): { auth?: 'public'; permission?: string | string[]; opsRoles?: readonly OpsRole[] | 'public' } {
  if (a === 'public') return ops ? { opsRoles: 'public' } : { auth: 'public' };
  if (a === 'signed-in') return {};
  if (typeof a === 'string') return { permission: a };
  if ('opsRoles' in a) return { opsRoles: a.opsRoles };
  return { permission: [...a] };
}

type Mismatch<Want, Got> = { readonly 'the schema does not match the endpoint table': { want: Want; got: Got } };

/** The schema of a route's input (query, form or JSON body): what the web sends by the descriptor must parse. */
export const inputOf =
  <E extends AnyEndpoint>(_e: E) =>
  <S extends z.ZodType>(schema: S & ([EndpointIn<E>] extends [z.input<S>] ? unknown : Mismatch<EndpointIn<E>, z.input<S>>)): S =>
    schema;

/**
 * The schema of a route's answer (the envelope's data): what it parses to is what the descriptor
 * promises — its answer, or the data a refusal carries beside its code (`EndpointRefusal`, e.g.
 * sign-in's `{ remaining }`), which the same schema serialises.
 */
export const answerOf =
  <E extends AnyEndpoint>(_e: E) =>
  <S extends z.ZodType>(schema: S & ([z.output<S>] extends [EndpointOut<E> | EndpointRefusal<E>] ? unknown : Mismatch<EndpointOut<E> | EndpointRefusal<E>, z.output<S>>)): S =>
    schema;
