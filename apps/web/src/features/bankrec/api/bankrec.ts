import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BankrecApi, type BankCsvMapping } from '@portal/contract';
import { http } from '../../../lib/http';
import { apiQuery, areaKey } from '../../../lib/api-query';

/** Bank statements and matching (issue 49 §2): /api/bankrec/*. */

export const statementsQuery = (merId: string | undefined, page: number, size: number) =>
  queryOptions({
    ...apiQuery(BankrecApi.statements, { merId, page, size }),
    placeholderData: keepPreviousData,
  });
export const useStatements = (merId: string | undefined, page: number, size: number) => useQuery(statementsQuery(merId, page, size));

export const useMatching = (q: { merId?: string; beginDate: string; endDate: string }) =>
  useQuery({
    ...apiQuery(BankrecApi.matching, q),
    placeholderData: keepPreviousData,
  });

export const useCsvMapping = (merId: string | undefined, enabled: boolean) => useQuery({ ...apiQuery(BankrecApi.csvMapping, { merId }), enabled });

const invalidate = (qc: ReturnType<typeof useQueryClient>) => qc.invalidateQueries({ queryKey: areaKey(BankrecApi.statements) });

/** POST /bankrec/statements (multipart; quiet: the dialog shows the refusal, which names the line or element). */
export function useUploadStatement() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ file, merId, acceptUnbalanced }: { file: File; merId?: string; acceptUnbalanced: boolean }) => {
      const fd = new FormData();
      if (merId) fd.set('merId', merId);
      fd.set('acceptUnbalanced', String(acceptUnbalanced));
      fd.set('file', file, file.name);
      return http.call(BankrecApi.upload, { multipart: fd }, { quiet: true });
    },
    onSuccess: () => invalidate(qc),
  });
}

export function useSaveCsvMapping() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (m: BankCsvMapping & { merId: string }) => http.call(BankrecApi.saveCsvMapping, m, { quiet: true }),
    onSuccess: () => invalidate(qc),
  });
}

export function useMatchAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, ids }: { action: 'confirm' | 'undo' | 'bulk'; ids: number[] }): Promise<unknown> =>
      action === 'bulk' ? http.call(BankrecApi.confirmMany, { ids }) : http.call(action === 'confirm' ? BankrecApi.confirm : BankrecApi.undo, { id: ids[0] }),
    onSuccess: () => invalidate(qc),
  });
}
