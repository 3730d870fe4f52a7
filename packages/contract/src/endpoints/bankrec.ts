import type { Page } from '../api';
import type { BankCsvMapping, BankImportResult, BankMatch, BankMatching, BankStatementRow } from '../bankrec';
import { Perm } from '../permissions';
import { get, post, type Multipart } from './endpoint';

const BANK = Perm.bankStatement;
type Id = { id: number };

/** Bank statements and matching (issue 49 §2). JSON bodies: the server's schemas are strict. */
export const BankrecApi = {
  statements: get<{ merId?: string; page: number; size: number }, Page<BankStatementRow>>('/api/bankrec/statements', BANK),
  upload: post<Multipart, BankImportResult>('/api/bankrec/statements', BANK, 'multipart'),
  csvMapping: get<{ merId?: string }, BankCsvMapping | null>('/api/bankrec/csv-mapping', BANK),
  saveCsvMapping: post<BankCsvMapping & { merId: string }, BankCsvMapping>('/api/bankrec/csv-mapping', BANK, 'json'),
  matching: get<{ merId?: string; beginDate: string; endDate: string }, BankMatching>('/api/bankrec/matching', BANK),
  confirmMany: post<{ ids: number[] }, BankMatch[]>('/api/bankrec/matches/confirm', BANK, 'json'),
  confirm: post<Id, BankMatch | null>('/api/bankrec/matches/:id/confirm', BANK, 'json'),
  undo: post<Id, BankMatch | null>('/api/bankrec/matches/:id/undo', BANK, 'json'),
  match: post<{ entryIds: number[]; transferIds: string[] }, BankMatch>('/api/bankrec/matches', BANK, 'json'),
  matchRun: post<{ merId?: string }, { proposed: number }>('/api/bankrec/match-run', BANK, 'json'),
} as const;
