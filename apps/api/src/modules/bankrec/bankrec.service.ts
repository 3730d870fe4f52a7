import type { BankEntry } from '@portal/contract';
import type { Queryable } from '../../db/db';
import * as repo from './bankrec.repo';
import { entryOut, money } from './bankrec.views';

export { BankAudit, type Meta } from './bankrec.views';
export { getCsvMappingFor, importStatementFile, listStatementRows, saveCsvMappingFor } from './bankrec.statements';
export { matchingView, runMatching } from './bankrec.matching';
export { confirmMatches, manualMatch, undoMatch } from './bankrec.confirm';

/** A transfer's matched bank credits (for the order timeline, issue 49 §3). */
export interface TransferBankCredit {
  transferId: string;
  matchId: number;
  state: 'proposed' | 'confirmed';
  kind: string;
  fee: string;
  entry: BankEntry;
}

/**
 * The bank credits matched (proposed or confirmed) to the given transfers (ids as /v1/transfers
 * names them), only of the merchants in `scope`: a map from transfer id to its credits.
 */
export async function bankCreditsForTransfers(db: Queryable, scope: string[], transferIds: string[]): Promise<Map<string, TransferBankCredit[]>> {
  const keys = transferIds.map(repo.keyOfTransferId).filter((k) => !!k && scope.includes(k.merId)) as NonNullable<ReturnType<typeof repo.keyOfTransferId>>[];
  const out = new Map<string, TransferBankCredit[]>();
  for (const r of await repo.creditsOfTransfers(db, scope, keys)) {
    const tid = `${r.t_date}.${r.t_mer}.${r.t_line}.${r.t_cur}`;
    const list = out.get(tid) ?? [];
    list.push({ transferId: tid, matchId: Number(r.match_id), state: r.state as 'proposed' | 'confirmed', kind: r.kind, fee: money(r.fee_minor, r.currency), entry: entryOut(r) });
    out.set(tid, list);
  }
  return out;
}
