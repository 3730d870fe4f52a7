import { http } from '../../../lib/http';
import { PayByLinkApi } from '@portal/contract';

/** GET /payByLink/orderno/{no}: what the QR dialog polls every 3 s ('00' paid, '01' ended). Quiet: a failed poll is retried by the next one. */
export const getOrderStatus = (orderNo: string, signal?: AbortSignal) => http.call(PayByLinkApi.orderStatus, { no: orderNo }, { signal, quiet: true });
