import { z } from 'zod';
import { Code, CURRENCY_EXPONENT, toMinor, type Language } from '@portal/contract';
import type { Db } from '../../db/db';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { DISPUTE_KINDS, DISPUTE_STATES } from './disputes.machine';
import { receiveDispute, type ReceiveStatus } from './disputes.receive';

/** At most this many disputes in one notification or file. */
export const MAX_DISPUTE_BATCH = 500;

const ID_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
const instant = z
  .string()
  .max(40)
  .refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), 'an ISO 8601 instant with its offset');

/** One dispute as a gateway reports it (provider API and the daily dispute file). */
export const DisputeRowSchema = z.strictObject({
  gwDisputeId: z.string().regex(ID_RE, "the gateway's dispute id: letters, digits, _ . : -, at most 64"),
  gwGTransId: z.string().regex(ID_RE, 'the purchase’s gateway transaction id'),
  kind: z.enum(DISPUTE_KINDS),
  status: z.enum(DISPUTE_STATES),
  reasonCode: z.string().regex(/^[A-Za-z0-9.]{1,8}$/, 'a reason code: 1–8 letters, digits or dots'),
  amount: z.string().regex(/^\d{1,15}(\.\d{1,3})?$/, 'a decimal amount'),
  currency: z.string().length(3),
  deadline: instant,
  openedAt: instant.optional(),
});
export type DisputeRowInput = z.infer<typeof DisputeRowSchema>;

export interface DisputeRowResult {
  index: number;
  gwDisputeId: string | null;
  status: 'accepted' | 'duplicate' | 'rejected';
  code: number;
  msg: string;
  field?: string;
  disputeId?: number;
  state?: string;
}

export interface FeedSource {
  /** The connection that reports (its merchants bound what it may report). */
  connection: { id: string; merchants: string[] };
  by: string;
  platformTz: string;
  now: Date;
  lang: Language;
}

/**
 * A batch of dispute notifications: each row parsed, then received in a transaction of its own
 * (one bad row never undoes another), answered accepted (new or moved), duplicate (nothing new) or
 * rejected with the reason in the caller's language.
 */
export async function receiveDisputeBatch(db: Db, rows: unknown[], src: FeedSource): Promise<{ results: DisputeRowResult[]; accepted: number; duplicate: number; rejected: number }> {
  const results: DisputeRowResult[] = [];
  for (const [index, raw] of rows.entries()) {
    const id = typeof (raw as { gwDisputeId?: unknown })?.gwDisputeId === 'string' ? String((raw as { gwDisputeId: string }).gwDisputeId).slice(0, 64) : null;
    try {
      const parsed = DisputeRowSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field: issue.path.join('.') || 'row', detail: issue.message }, 400, { field: issue.path.join('.') });
      }
      const r = parsed.data;
      if (!(r.currency in CURRENCY_EXPONENT)) throw new AppError(Code.BAD_REQUEST, 'payCurrencyUnknown', { currency: r.currency }, 400, { field: 'currency' });
      let amount: number;
      try {
        amount = toMinor(r.amount, r.currency);
      } catch (e) {
        throw new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field: 'amount', detail: (e as Error).message }, 400, { field: 'amount' });
      }
      if (amount <= 0) throw new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field: 'amount', detail: 'more than 0' }, 400, { field: 'amount' });
      const out = await db.tx((q) =>
        receiveDispute(
          q,
          {
            gwDisputeId: r.gwDisputeId,
            gwTransId: r.gwGTransId,
            kind: r.kind,
            state: r.status,
            reasonCode: r.reasonCode,
            amount,
            currency: r.currency,
            deadline: new Date(r.deadline),
            openedAt: r.openedAt ? new Date(r.openedAt) : undefined,
          },
          { platformTz: src.platformTz, now: src.now, by: src.by, connectionId: src.connection.id, merchants: src.connection.merchants },
        ),
      );
      const status: ReceiveStatus = out.status;
      results.push({
        index,
        gwDisputeId: r.gwDisputeId,
        status: status === 'duplicate' ? 'duplicate' : 'accepted',
        code: Code.OK,
        msg: t(src.lang, 'success'),
        disputeId: out.dispute.id,
        state: out.dispute.state,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const field = (err.data as { field?: string } | null)?.field;
      results.push({ index, gwDisputeId: id, status: 'rejected', code: err.code, msg: t(src.lang, err.key, err.params), ...(field ? { field } : {}) });
    }
  }
  return {
    results,
    accepted: results.filter((r) => r.status === 'accepted').length,
    duplicate: results.filter((r) => r.status === 'duplicate').length,
    rejected: results.filter((r) => r.status === 'rejected').length,
  };
}
