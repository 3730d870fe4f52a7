import { queryOptions } from '@tanstack/react-query';
import { endpointKey, type AnyEndpoint, type EndpointIn } from '@portal/contract';
import { http } from './http';
import type { CallAnswer, CallArgs } from './request';

/**
 * The query of a GET endpoint (issue 45 §3, decision 074): its key from the descriptor — the path
 * under /api, then the input (`['webhooks', 'endpoint', 'list']`) — and its call. A prefix of the key
 * (`['webhooks']`) invalidates the area. Spread it into useQuery with the screen's own options.
 */
export const apiQuery = <E extends AnyEndpoint>(e: E, input: EndpointIn<E>, call: { quiet?: boolean } = {}) =>
  queryOptions({
    queryKey: endpointKey(e, input),
    // The input is EndpointIn<E> already; TypeScript cannot see that it fits the argument tuple of CallArgs<E>.
    queryFn: ({ signal }): Promise<CallAnswer<E>> => http.call(e, ...([input, { ...call, signal }] as unknown as CallArgs<E>)),
  });

/** The key alone (to invalidate one endpoint's queries, whatever their input). */
export const apiKey = (e: AnyEndpoint): readonly unknown[] => endpointKey(e);
