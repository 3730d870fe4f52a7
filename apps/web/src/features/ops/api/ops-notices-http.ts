import { OpsMerchantsApi, type OpsNoticeBody } from '@portal/contract';
import { opsHttp } from './ops-http';
export type { OpsNoticeBody } from '@portal/contract';

export const opsNoticesApi = {
  create: (json: OpsNoticeBody) => opsHttp.call(OpsMerchantsApi.createNotice, json),
  edit: (id: number, json: OpsNoticeBody) => opsHttp.call(OpsMerchantsApi.editNotice, { ...json, id }),
  withdraw: (id: number) => opsHttp.call(OpsMerchantsApi.withdrawNotice, { id }),
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
