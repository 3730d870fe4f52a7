import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { FilesApi, NoticeApi } from '@portal/contract';
import { apiQuery, ofEndpoints } from '../../../lib/api-query';

/** GET /report/file/list: the user's export files, newest first; key from the descriptor (['report', 'file', 'list', { page, size }]). */
export const filesQuery = (page: number, size: number) =>
  queryOptions({
    ...apiQuery(FilesApi.list, { page, size }),
    placeholderData: keepPreviousData,
    // While a file is queued or running, look again every 2 seconds.
    refetchInterval: (q) => (q.state.data?.content.some((f) => f.status === 'queued' || f.status === 'running') ? 2000 : false),
  });
export const useFiles = (page: number, size: number) => useQuery(filesQuery(page, size));

/** GET /report/file/download/{id} (file). */
export const downloadFile = async (id: number) => saveFile(await http.call(FilesApi.download, { id }));

/** POST /report/file/delete (form id). */
const deleteFile = (id: number) => http.call(FilesApi.delete, { id });
/** What a deletion refreshes: the export files and the published documents, as the hand-named ['files'] prefix covered both. */
export const fileQueries = ofEndpoints(FilesApi.list, NoticeApi.documents);
export function useDeleteFile() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteFile, onSuccess: () => qc.invalidateQueries({ predicate: fileQueries }) });
}
