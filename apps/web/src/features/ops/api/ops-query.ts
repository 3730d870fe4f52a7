import type { AnyEndpoint, EndpointIn } from '@portal/contract';
import { clientQuery } from '../../../lib/api-query';
import { opsHttp } from './ops-http';

/**
 * A back-office query (issue 45 §3, decision 074): its key from the descriptor — the path under /api,
 * so every one starts with 'ops' (`['ops', 'merchants', ':merId', { merId }]`) — and its call through
 * the operator's client (decision 038), never the portal's.
 */
export const opsQuery = <E extends AnyEndpoint>(e: E, input: EndpointIn<E>, call: { quiet?: boolean } = {}) => clientQuery(opsHttp, e, input, call);
