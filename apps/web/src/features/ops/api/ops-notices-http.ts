import type { OpsNoticeRow, OpsNoticeStatus } from '@portal/contract';
import { opsHttp } from './ops-http';

/** The back office's notices (decision 044). */
export interface OpsNoticeBody {
  title: string;
  summary?: string;
  content: string;
  level: 'info' | 'important';
  target: 'all' | 'merchants' | 'group';
  merchants?: string[];
  groupId?: string;
  publishAt?: string;
  timeZone?: string;
  files?: { name: string; contentBase64: string }[];
  removeAttachments?: number[];
}

export const opsNoticesApi = {
  list: (params: { status?: OpsNoticeStatus; page: number; size: number }) => opsHttp.request<{ content: OpsNoticeRow[]; totalElements: number }>({ url: '/notices', params }),
  create: (json: OpsNoticeBody) => opsHttp.request<OpsNoticeRow>({ method: 'POST', url: '/notices', json }),
  edit: (id: number, json: OpsNoticeBody) => opsHttp.request<OpsNoticeRow>({ method: 'POST', url: `/notices/${id}`, json }),
  withdraw: (id: number) => opsHttp.request<OpsNoticeRow>({ method: 'POST', url: `/notices/${id}/withdraw` }),
};

/** A file's content in base64 (the body of create/edit). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('read'));
    r.readAsDataURL(file);
  });
}
