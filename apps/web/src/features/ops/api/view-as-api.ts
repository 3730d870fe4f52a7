import { opsHttp } from './ops-http';

/** Support "view as" (decision 046): the back office's calls. */
export interface ViewAsOpened {
  id: number;
  token: string;
  merId: string;
  merName: string;
  expiresAt: string;
}

export const viewAsApi = {
  open: (merId: string, reason: string) => opsHttp.request<ViewAsOpened>({ method: 'POST', url: `/merchants/${merId}/view-as`, json: { reason } }),
  end: (id: number) => opsHttp.request<null>({ method: 'POST', url: `/view-as/${id}/end`, quiet: true }),
};

/** The merchant portal's entry of a view-as tab: the token rides in the fragment (never sent, never logged). */
export const viewAsEntryUrl = (v: ViewAsOpened) => `/view-as#${new URLSearchParams({ token: v.token }).toString()}`;
