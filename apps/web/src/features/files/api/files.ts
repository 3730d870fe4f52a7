import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, saveFile } from '../../../lib/http';
import { FilesApi } from '@portal/contract';

/** GET /report/file/list: the user's export files, newest first. */
const getFiles = (page: number, size: number, signal?: AbortSignal) => http.call(FilesApi.list, { page, size }, { signal });

const filesQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ['files', 'list', { page, size }],
    queryFn: ({ signal }) => getFiles(page, size, signal),
    placeholderData: keepPreviousData,
    // While a file is queued or running, look again every 2 seconds.
    refetchInterval: (q) => (q.state.data?.content.some((f) => f.status === 'queued' || f.status === 'running') ? 2000 : false),
  });
export const useFiles = (page: number, size: number) => useQuery(filesQuery(page, size));

/** GET /report/file/download/{id} (file). */
export const downloadFile = async (id: number) => saveFile(await http.call(FilesApi.download, { id }));

/** POST /report/file/delete (form id). */
const deleteFile = (id: number) => http.call(FilesApi.delete, { id });
export function useDeleteFile() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteFile, onSuccess: () => qc.invalidateQueries({ queryKey: ['files'] }) });
}
