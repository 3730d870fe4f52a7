import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BankCsvMapping, BankImportResult, BankMatch, BankMatching, BankStatementRow, Page } from '@portal/contract';
import { http } from '../../../lib/http';

/** Bank statements and matching (issue 49 §2): /api/bankrec/*. */

export const statementsQuery = (merId: string | undefined, page: number, size: number) =>
  queryOptions({
    queryKey: ['bankrec', 'statements', { merId, page, size }],
    queryFn: ({ signal }) => http.get<Page<BankStatementRow>>('/bankrec/statements', { merId, page, size }, { signal }),
    placeholderData: keepPreviousData,
  });
export const useStatements = (merId: string | undefined, page: number, size: number) => useQuery(statementsQuery(merId, page, size));

export const useMatching = (q: { merId?: string; beginDate: string; endDate: string }) =>
  useQuery({
    queryKey: ['bankrec', 'matching', q],
    queryFn: ({ signal }) => http.get<BankMatching>('/bankrec/matching', q, { signal }),
    placeholderData: keepPreviousData,
  });

export const useCsvMapping = (merId: string | undefined, enabled: boolean) =>
  useQuery({ queryKey: ['bankrec', 'csv', merId], queryFn: ({ signal }) => http.get<BankCsvMapping | null>('/bankrec/csv-mapping', { merId }, { signal }), enabled });

const invalidate = (qc: ReturnType<typeof useQueryClient>) => qc.invalidateQueries({ queryKey: ['bankrec'] });

/** POST /bankrec/statements (multipart; quiet: the dialog shows the refusal, which names the line or element). */
export function useUploadStatement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, merId, acceptUnbalanced }: { file: File; merId?: string; acceptUnbalanced: boolean }) => {
      const fd = new FormData();
      if (merId) fd.set('merId', merId);
      fd.set('acceptUnbalanced', String(acceptUnbalanced));
      fd.set('file', file, file.name);
      return http.upload<BankImportResult>('/bankrec/statements', fd, { quiet: true });
    },
    onSuccess: () => invalidate(qc),
  });
}

export function useSaveCsvMapping() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (m: BankCsvMapping & { merId: string }) => http.request<BankCsvMapping>({ url: '/bankrec/csv-mapping', method: 'POST', json: m, quiet: true }),
    onSuccess: () => invalidate(qc),
  });
}

export function useMatchAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, ids }: { action: 'confirm' | 'undo' | 'bulk'; ids: number[] }): Promise<unknown> =>
      action === 'bulk'
        ? http.request<BankMatch[]>({ url: '/bankrec/matches/confirm', method: 'POST', json: { ids } })
        : http.request<BankMatch | null>({ url: `/bankrec/matches/${ids[0]}/${action}`, method: 'POST', json: {} }),
    onSuccess: () => invalidate(qc),
  });
}
