import { queryOptions, type Query } from '@tanstack/react-query';
import { endpointKey, type AnyEndpoint, type EndpointIn } from '@portal/contract';
import { http } from './http';
import type { CallAnswer, CallArgs, HttpClient } from './request';

/**
 * The query of an endpoint through a given client (the back office's `opsHttp`, decision 038): its key
 * from the descriptor — the path under /api, then the input — and its call. `apiQuery` is this with
 * the portal's client.
 */
export const clientQuery = <E extends AnyEndpoint>(client: Pick<HttpClient, 'call'>, e: E, input: EndpointIn<E>, call: { quiet?: boolean } = {}) =>
  queryOptions({
    queryKey: endpointKey(e, input),
    // The input is EndpointIn<E> already; TypeScript cannot see that it fits the argument tuple of CallArgs<E>.
    queryFn: ({ signal }): Promise<CallAnswer<E>> => client.call(e, ...([input, { ...call, signal }] as unknown as CallArgs<E>)),
  });

/**
 * The query of a GET endpoint (issue 45 §3, decision 074): its key from the descriptor — the path
 * under /api, then the input (`['webhooks', 'endpoint', 'list']`) — and its call. A prefix of the key
 * (`['webhooks']`) invalidates the area. Spread it into useQuery with the screen's own options.
 */
export const apiQuery = <E extends AnyEndpoint>(e: E, input: EndpointIn<E>, call: { quiet?: boolean } = {}) => clientQuery(http, e, input, call);

/** The key alone (to invalidate one endpoint's queries, whatever their input). */
export const apiKey = (e: AnyEndpoint): readonly unknown[] => endpointKey(e);

/**
 * An area's prefix: the first `depth` segments of a descriptor's key — `areaKey(TxnApi.list)` is
 * `['txn']`, `areaKey(TeamApi.review, 2)` `['access', 'review']`. Taken from a descriptor, so only a
 * prefix that some endpoint's key has can be named (a path's literal type is not kept by the table).
 */
export const areaKey = (e: AnyEndpoint, depth = 1): readonly unknown[] => {
  const key = endpointKey(e);
  if (!Number.isInteger(depth) || depth < 1 || depth > key.length) throw new Error(`${e.path}: no prefix of depth ${depth}`);
  return key.slice(0, depth);
};

/**
 * The queries of these endpoints and no other (whatever their input): a `predicate` for
 * invalidateQueries when a screen's queries share no prefix of their own (the team screens' users,
 * roles, audit and approvals live under /user, /role, /audit and /approval beside other screens').
 */
export const ofEndpoints =
  (...es: AnyEndpoint[]) =>
  (q: Pick<Query, 'queryKey'>): boolean =>
    es.some((e) => {
      const key = endpointKey(e);
      const n = q.queryKey.length;
      return (n === key.length || n === key.length + 1) && key.every((s, i) => q.queryKey[i] === s);
    });
