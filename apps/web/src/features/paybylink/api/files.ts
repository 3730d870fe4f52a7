import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { PayByLinkApi, type UploadResult } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
export type { UploadResult } from '@portal/contract';

/** POST /payByLink/uploadFile (multipart `file`): msg 'success', data the stored attachment. */
export function uploadFile(file: File): Promise<UploadResult> {
  const fd = new FormData();
  fd.append('file', file, file.name);
  return http.call(PayByLinkApi.uploadFile, { multipart: fd }, { quiet: true });
}

/** GET /payByLink/attachmentDownload?attachment=… (a file named by Content-Disposition). */
export const downloadAttachment = async (attachment: string) => saveFile(await http.call(PayByLinkApi.attachmentDownload, { attachment }));

/** GET /payByLink/export with the list filters (a file); answers the file's name. */
export const exportPbl = async (q: Record<string, string | number | undefined>): Promise<string> => {
  const file = await http.call(PayByLinkApi.export, { ...q, format: 'xlsx' });
  saveFile(file);
  return file.filename;
};

/** POST /payByLink/qrList (form link, orderCurrency): the payment methods and their logos. */
const qrListQuery = (link: string, orderCurrency: string) => queryOptions({ ...apiQuery(PayByLinkApi.qrList, { link, orderCurrency }), staleTime: 60_000 });
export const useQrList = (link: string, orderCurrency: string) => useQuery({ ...qrListQuery(link, orderCurrency), enabled: !!link && !!orderCurrency });

/** GET /payByLink/options: the merchant's currencies (default first) and the form's choices. */
/** Asked only while `enabled` (the create/modify dialog is open): a user who cannot create never asks (issue 13, fix 2). */
export const usePblOptions = (enabled = true) => useQuery({ ...apiQuery(PayByLinkApi.options, undefined), staleTime: 300_000, enabled });
