import type { Queryable } from '../../db/db';
import { minorToText } from './parse/amount';

/** Test and bench data for bank statements: transfers (settlement rows that paid out) and camt.053 files. */

export interface TransferFixture {
  merId: string;
  busLine: string;
  setCur: string;
  txnSetDate: string;
  remitDate: string;
  /** realTransAmount (minor units): what was sent to the bank. */
  amount: number;
  tranFee?: number;
}

export const transferId = (t: Pick<TransferFixture, 'merId' | 'busLine' | 'setCur' | 'txnSetDate'>) => `${t.txnSetDate}.${t.merId}.${t.busLine}.${t.setCur}`;

/** Settlement rows with a transfer (as the settlement run writes them), in bulk. */
export async function insertTransfers(q: Queryable, ts: TransferFixture[]): Promise<void> {
  for (let i = 0; i < ts.length; i += 5000) {
    const c = ts.slice(i, i + 5000);
    await q.query(
      `INSERT INTO settlement (txn_set_date, mer_id, bus_line, set_cur, txn_count, recon_set_amount, fee_amount, serv_amount, released_amount, net_amount,
                               history_pending, total_pending, trans_amount, real_trans_before_fee, tran_fee, real_trans_amount, tran_threshold, trans_period, remit_date, recon_search_date)
       SELECT d, m, b, c, 1, a + f, 0, 0, 0, a + f, 0, 0, a + f, a + f, f, a, 0, 'D', r, d
         FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::date[]) AS x(d, m, b, c, a, f, r)`,
      [
        c.map((t) => t.txnSetDate),
        c.map((t) => t.merId),
        c.map((t) => t.busLine),
        c.map((t) => t.setCur),
        c.map((t) => String(t.amount)),
        c.map((t) => String(t.tranFee ?? 0)),
        c.map((t) => t.remitDate),
      ],
    );
  }
}

export interface CamtEntry {
  amount: number;
  currency: string;
  date: string;
  reference?: string | null;
  bankRef?: string | null;
  debtor?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A balanced camt.053.001.08 statement of `entries` (credits > 0, debits < 0). */
export function camtStatement(o: { id: string; account: string; currency: string; opening: number; entries: CamtEntry[]; version?: string; closing?: number }): string {
  const closing = o.closing ?? o.opening + o.entries.reduce((s, e) => s + e.amount, 0);
  const bal = (code: string, amount: number, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${o.currency}">${minorToText(Math.abs(amount), o.currency)}</Amt><CdtDbtInd>${amount < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const dates = o.entries.map((e) => e.date).sort();
  const first = dates[0] ?? '2026-01-01';
  const last = dates[dates.length - 1] ?? first;
  const ntry = (e: CamtEntry) =>
    `<Ntry>${e.bankRef ? `<NtryRef>${esc(e.bankRef)}</NtryRef>` : ''}<Amt Ccy="${e.currency}">${minorToText(Math.abs(e.amount), e.currency)}</Amt><CdtDbtInd>${e.amount < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
    `<BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt>${e.bankRef ? `<AcctSvcrRef>${esc(e.bankRef)}</AcctSvcrRef>` : ''}<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
    `<NtryDtls><TxDtls>${e.reference ? `<Refs><EndToEndId>${esc(e.reference)}</EndToEndId></Refs>` : ''}<RltdPties><Dbtr><Pty><Nm>${esc(e.debtor ?? 'Acquirer Settlement Ltd')}</Nm></Pty></Dbtr></RltdPties>` +
    `${e.reference ? `<RmtInf><Ustrd>${esc(e.reference)}</Ustrd></RmtInf>` : ''}</TxDtls></NtryDtls></Ntry>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${o.version ?? '08'}"><BkToCstmrStmt>` +
    `<GrpHdr><MsgId>${esc(o.id)}-MSG</MsgId><CreDtTm>${last}T18:00:00</CreDtTm></GrpHdr>` +
    `<Stmt><Id>${esc(o.id)}</Id><CreDtTm>${last}T18:00:00</CreDtTm><FrToDt><FrDtTm>${first}T00:00:00</FrDtTm><ToDtTm>${last}T23:59:59</ToDtTm></FrToDt>` +
    `<Acct><Id><IBAN>${o.account}</IBAN></Id><Ccy>${o.currency}</Ccy></Acct>${bal('OPBD', o.opening, first)}${bal('CLBD', closing, last)}\n` +
    o.entries.map(ntry).join('\n') +
    `\n</Stmt></BkToCstmrStmt></Document>\n`
  );
}

/** A multipart/form-data body with one file and some fields. */
export function multipartBody(file: { name: string; content: string | Buffer }, fields: Record<string, string> = {}) {
  const b = `----bankrec${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
  parts.push(Buffer.from(`\r\n--${b}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${b}` }, payload: Buffer.concat(parts) };
}
