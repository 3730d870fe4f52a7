import type { Page } from '../api';
import type { Brand } from '../brands';
import type { DocumentKind, MerchantDocument } from '../files';
import type { BankRequest, DepositDetail, MerchantBankRow, MerchantDetail, MerchantFeeRow, MerchantListRow } from '../merchant';
import type { NoticeDetail, NoticeRow } from '../notice';
import { Perm } from '../permissions';
import type { CashCalendar } from '../report';
import type { SearchResult } from '../search';
import { download, get, post, type Multipart } from './endpoint';
import type { WireQuery } from './wire';

export interface MerchantListParams {
  page: number;
  size: number;
  keyword?: string;
  attribute?: string;
}
export interface DocumentParams {
  page: number;
  size: number;
  kind?: DocumentKind;
  periodFrom?: string;
  periodTo?: string;
  currency?: string;
}
/** One difference of the gateway feed's reconciliation (issue 25 §3). */
export interface FeedDifference {
  id: number;
  connectionId: string;
  date: string;
  kind: 'missing' | 'extra' | 'amount' | 'status' | 'unreported' | (string & {});
  gwTransId: string | null;
  merId: string | null;
  detail: Record<string, unknown>;
}

/** Merchant information (spec §3 "Merchant"): list, detail, fees, banks, deposit, the bank change. */
export const MerchantApi = {
  subBrandCodes: get<void, string[]>('/api/merchant/getSubBrandCodeList', 'signed-in'),
  chargeCodes: get<void, Brand[]>('/api/charge/codeList', 'signed-in'),
  list: get<MerchantListParams, Page<MerchantListRow>>('/api/merchant/list', Perm.merchantList),
  /** The same list under the spec's older path. */
  listRoot: get<MerchantListParams, Page<MerchantListRow>>('/api/merchant', Perm.merchantList),
  fees: get<{ merId: string }, Page<MerchantFeeRow>>('/api/merchant/listMerchantFee', Perm.merchantDetail),
  banks: get<{ merId: string }, Page<MerchantBankRow> & { requests: BankRequest[] }>('/api/merchant/listMerchantBank', Perm.merchantDetail),
  bankChangeRequest: post<Multipart, BankRequest>('/api/merchant/bankChangeRequest', Perm.merchantBankChange, 'multipart'),
  deposit: get<{ id: string }, DepositDetail>('/api/merchant/detailDeposit/:id', Perm.merchantDetail),
  detail: get<{ id: string }, MerchantDetail>('/api/merchant/:id', Perm.merchantDetail),
} as const;

/** Notices and the documents the provider published (spec §3, issue 30). */
export const NoticeApi = {
  list: get<{ page: number; size: number }, Page<NoticeRow>>('/api/notice/list', Perm.noticeList),
  detail: get<{ id: string | number }, NoticeDetail>('/api/notice/detail/:id', Perm.noticeList),
  attachment: download<{ id: number }>('/api/notice/attachment/:id', [Perm.noticeList, Perm.filesDownload]),
  documents: get<DocumentParams, Page<MerchantDocument>>('/api/files/list', Perm.filesDownload),
  document: download<{ id: number }>('/api/files/download/:id', Perm.filesDownload),
} as const;

/** The dashboard, the search box, the chat bubble and the gateway feed's differences. */
export const HomeApi = {
  cashCalendar: get<WireQuery, CashCalendar>('/api/dashboard/cashCalendar', Perm.dashboard),
  search: get<{ q: string }, SearchResult>('/api/search', [Perm.txnDetail, Perm.payByLinkDetail, Perm.payInStoreList]),
  chatToken: get<void, { url: string; expiresAt: number } | null>('/api/chat/token', 'signed-in'),
  feedDifferences: get<{ date: string }, FeedDifference[]>('/api/gateway/differences', Perm.manualBlend),
} as const;
