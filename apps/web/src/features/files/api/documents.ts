import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { NoticeApi, type DocumentParams, type MerchantDocument } from '@portal/contract';
import { http, saveFile } from '../../../lib/http';
import { apiQuery } from '../../../lib/api-query';
export type { DocumentParams } from '@portal/contract';

/** GET /files/list: documents the provider published to the caller's merchants. */
export const useDocuments = (q: DocumentParams) =>
  useQuery({
    ...apiQuery(NoticeApi.documents, q),
    placeholderData: keepPreviousData,
  });

/** GET /files/download/{id} (file), or a notice's attachment: GET /notice/attachment/{id}. */
export const downloadDocument = async (d: Pick<MerchantDocument, 'id' | 'kind'>) => saveFile(await http.call(d.kind === 'NOTICE_ATTACHMENT' ? NoticeApi.attachment : NoticeApi.document, { id: d.id }));
