import { opsHttp } from './ops-http';
import { OpsWorkApi, type ViewAsOpened } from '@portal/contract';
export type { ViewAsOpened } from '@portal/contract';

export const viewAsApi = {
  open: (merId: string, reason: string) => opsHttp.call(OpsWorkApi.viewAs, { merId, reason }),
  end: (id: number) => opsHttp.call(OpsWorkApi.endViewAs, { id }, { quiet: true }),
};

/** The merchant portal's entry of a view-as tab: the token rides in the fragment (never sent, never logged). */
export const viewAsEntryUrl = (v: ViewAsOpened) => `/view-as#${new URLSearchParams({ token: v.token }).toString()}`;
