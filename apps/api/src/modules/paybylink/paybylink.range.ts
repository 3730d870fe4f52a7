import { Code, MAX_RANGE_DAYS, isReversedRange } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { reversedRange } from '../../lib/validation';
import { daysBetween } from '../../lib/dates';

/** The creation-date range of a list or export: begin ≤ end, at most three months (spec §5, §9). */
export function checkPblRange(begin?: string, end?: string): void {
  if (!begin || !end) return;
  if (isReversedRange(begin, end)) throw reversedRange();
  if (daysBetween(begin, end) > MAX_RANGE_DAYS) throw new AppError(Code.BAD_REQUEST, 'pblRangeTooLong', {}, 400);
}
