import type { Page } from '../api';
import type { CheckoutOrder, CheckoutPayResult, PayByLinkAddResult, PayByLinkDetail, PayByLinkOrder, PayByLinkRow, PayMethod } from '../paybylink';
import { Perm } from '../permissions';
import type { Cashier, PayInStoreAddResult, PayInStoreDetail, PayInStoreRow, Store, StoreCheckout } from '../store';
import { download, get, post, type Multipart, type RedirectAnswer } from './endpoint';
import type { WireQuery } from './wire';

/** What the QR dialog polls every 3 s ('00' paid, '01' ended). */
export interface PblOrderStatus {
  orderno: string;
  reconId: string;
  status: string;
  openStatus: string;
  closeReason: string | null;
}
/** POST /payByLink/uploadFile: the stored attachment. */
export interface UploadResult {
  attachment: string;
  fileName: string;
  size: number;
  type: string;
}
/** GET /payByLink/options: the merchant's currencies (default first) and the form's choices. */
export interface PblOptions {
  currencies: string[];
  validDays: number[];
  defaultValidDays: number;
  attachmentMaxBytes: number;
  attachmentTypes: string[];
  accept: string;
}
/** The order form as sent (url-encoded; blank fields left out). */
export type PblFormBody = Record<string, string | undefined>;
/** The signed-in cashier (cookie session, decision 018). */
export interface CashierMe {
  cashierId: string;
  wechatName: string;
  storeId: string;
  storeName: string;
  merId: string;
  merName: string;
}
type XlsxExport = WireQuery & { format: 'xlsx' | 'csv' };

/** Pay by link (spec §3): orders, their files, the QR's methods. */
export const PayByLinkApi = {
  list: get<WireQuery, Page<PayByLinkRow>>('/api/payByLink/list', Perm.payByLinkList),
  export: download<XlsxExport>('/api/payByLink/export', Perm.payByLinkList),
  orderStatus: get<{ no: string }, PblOrderStatus>('/api/payByLink/orderno/:no', [Perm.payByLinkList, Perm.payByLinkDetail]),
  close: get<{ id: number }, '00' | '01'>('/api/payByLink/closeOrder/:id', Perm.payByLinkClose),
  detail: get<{ id: number | string }, PayByLinkDetail>('/api/payByLink/:id', Perm.payByLinkDetail),
  add: post<PblFormBody, PayByLinkAddResult>('/api/payByLink/add', Perm.payByLinkCreate),
  update: post<PblFormBody, PayByLinkOrder>('/api/payByLink/updateOrder', Perm.payByLinkUpdate),
  uploadFile: post<Multipart, UploadResult>('/api/payByLink/uploadFile', [Perm.payByLinkCreate, Perm.payByLinkUpdate], 'multipart'),
  attachmentDownload: download<{ attachment: string }>('/api/payByLink/attachmentDownload', [Perm.payByLinkDetail, Perm.payByLinkList]),
  qrList: post<{ link: string; orderCurrency: string }, PayMethod[]>('/api/payByLink/qrList', [Perm.payByLinkList, Perm.payByLinkDetail, Perm.payByLinkCreate]),
  options: get<void, PblOptions>('/api/payByLink/options', [Perm.payByLinkCreate, Perm.payByLinkUpdate]),
  logo: download<{ file: string }>('/api/payByLink/logo/:file', 'public'),
} as const;

/** The buyer's hosted checkout (public: the link's token is the key). */
export const CheckoutApi = {
  order: get<{ token: string }, CheckoutOrder>('/api/checkout/:token', 'public'),
  status: get<{ token: string }, CheckoutOrder>('/api/checkout/:token/status', 'public'),
  pay: post<{ token: string; method: string; cardNumber?: string }, CheckoutPayResult>('/api/checkout/:token/pay', 'public'),
  store: get<{ token: string }, StoreCheckout>('/api/checkout/store/:token', 'public'),
  storeOrder: post<{ token: string; orderCurrency: string; totalAmount: string }, { orderNo: string; link: string }>('/api/checkout/store/:token/order', 'public'),
} as const;

/** Pay in store (issue 18): orders, stores, cashiers. */
export const PayInStoreApi = {
  export: download<XlsxExport>('/api/payInStore/export', Perm.payInStoreList),
  stores: get<void, Store[]>('/api/payInStore/storeList', Perm.payInStoreList),
  list: get<WireQuery, Page<PayInStoreRow>>('/api/payInStore/list', Perm.payInStoreList),
  logoList: get<{ storeId: string; orderCurrency: string }, PayMethod[]>('/api/payInStore/logoList', Perm.payInStoreList),
  orderStatus: get<{ no: string }, { orderno: string; status: string; openStatus: string; closeReason: string | null }>('/api/payInStore/orderno/:no', Perm.payInStoreList),
  detail: get<{ id: string | number }, PayInStoreDetail>('/api/payInStore/:id', Perm.payInStoreList),
  add: post<Record<string, string>, PayInStoreAddResult>('/api/payInStore/add', Perm.payInStoreCreate),
  cashiers: get<{ storeId?: string }, Cashier[]>('/api/payInStore/cashier/list', Perm.cashierManage),
  bindQr: post<{ storeId: string }, { url: string; expiresIn: number }>('/api/payInStore/cashier/bindQr', Perm.cashierManage),
  unbind: post<{ cashierId: string }, null>('/api/payInStore/cashier/unbind', Perm.cashierManage),
} as const;

/** The cashier view (/pay/cashier): its own cookie session, public to the route table. */
export const CashierApi = {
  wechatCallback: get<{ code?: string; state?: string }, RedirectAnswer>('/api/cashier/wechat/callback', 'public'),
  wechatLogin: get<void, RedirectAnswer>('/api/cashier/wechat/login', 'public'),
  me: get<void, CashierMe>('/api/cashier/me', 'public'),
  orders: get<{ page: number; size: number }, Page<PayInStoreRow>>('/api/cashier/orders', 'public'),
  logout: post<void, null>('/api/cashier/logout', 'public'),
} as const;
