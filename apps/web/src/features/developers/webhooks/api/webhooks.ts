import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../../lib/http';
import { apiQuery, areaKey } from '../../../../lib/api-query';
import { WebhooksApi, type DeliveryFilter } from '@portal/contract';
export type { DeliveryFilter } from '@portal/contract';

/**
 * GET /webhooks/endpoint/list: the endpoints of the user's merchants — refreshed every 5 s while
 * one has deliveries being tried, so its counts follow the delivery log (issue 53: a row said
 * "Retrying 1" while its delivery showed "Delivered, 200").
 */
const endpointsQuery = () =>
  queryOptions({
    ...apiQuery(WebhooksApi.endpoints, undefined),
    refetchInterval: (q) => (q.state.data?.some((e) => e.pending > 0) ? 5_000 : false),
  });
export const useEndpoints = () => useQuery(endpointsQuery());

/** GET /webhooks/delivery/list: one endpoint's deliveries, newest first (refreshed every 5 s while some are pending). */
export const useDeliveries = (f: DeliveryFilter | null) =>
  useQuery({
    ...apiQuery(WebhooksApi.deliveries, { ...f! }),
    enabled: !!f,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.content.some((d) => d.state === 'pending') ? 5_000 : false),
  });

/** GET /webhooks/delivery/detail: a delivery's body and attempts. */
export const useDeliveryDetail = (id: number | null) =>
  useQuery({
    ...apiQuery(WebhooksApi.delivery, { id: id! }),
    enabled: id !== null,
  });

function useWebhookMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: areaKey(WebhooksApi.endpoints) }) });
}

export type EndpointForm = { id?: number; merId?: string; url: string; events: string[]; description?: string };

/** POST /webhooks/endpoint/create (answers with the secret, once) or /update (quiet: the dialog shows the error). */
export const useCreateEndpoint = () =>
  useWebhookMutation((f: EndpointForm) => http.call(WebhooksApi.create, { merId: f.merId ?? '', url: f.url, events: f.events, description: f.description ?? '' }, { quiet: true }));
export const useUpdateEndpoint = () =>
  useWebhookMutation((f: EndpointForm) => http.call(WebhooksApi.update, { id: f.id!, url: f.url, events: f.events, description: f.description ?? '' }, { quiet: true }));
export const useRotateSecret = () => useWebhookMutation((id: number) => http.call(WebhooksApi.rotate, { id }));
/** POST /webhooks/endpoint/endPreviousSecret: the previous secret stops signing now (issue 47). */
export const useEndPreviousSecret = () => useWebhookMutation((id: number) => http.call(WebhooksApi.endPreviousSecret, { id }));
export const useSetEnabled = () => useWebhookMutation(({ id, enabled }: { id: number; enabled: boolean }) => http.call(enabled ? WebhooksApi.enable : WebhooksApi.disable, { id }));
export const useSendTest = () => useWebhookMutation((id: number) => http.call(WebhooksApi.test, { id }));
export const useResend = () => useWebhookMutation((id: number) => http.call(WebhooksApi.resend, { id }));
export const useResendFailed = () => useWebhookMutation(({ id, since }: { id: number; since: string }) => http.call(WebhooksApi.resendFailed, { id, since }));
