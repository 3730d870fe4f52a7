import { Code, MAX_RANGE_DAYS } from '@portal/contract';
import { AppError, badRequest } from '../../lib/errors';
import { daysBetween } from '../txn/time';

/** The creation-date range of a list or export: begin ≤ end, at most three months (spec §5, §9). */
export function checkPblRange(begin?: string, end?: string): void {
  if (!begin || !end) return;
  if (begin > end) throw badRequest('beginDate must not be after endDate');
  if (daysBetween(begin, end) > MAX_RANGE_DAYS) throw new AppError(Code.BAD_REQUEST, 'pblRangeTooLong', {}, 400);
}
