import type { FormItemProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MAX_RANGE_DAYS } from '@portal/contract';
import { RangePicker } from '../../../components/date-range-filter';
import { dayjs, WIRE_DATE, zoneNow } from '../../../lib/time';

export type DayRange = [Dayjs, Dayjs];

/** 'YYYY-MM-DD' pair ↔ picker value. */
export const toRange = (b?: string, e?: string): DayRange | null => (b && e ? [dayjs(b), dayjs(e)] : null);
export const fromRange = (r: DayRange | null | undefined): [string | undefined, string | undefined] => (r ? [r[0].format(WIRE_DATE), r[1].format(WIRE_DATE)] : [undefined, undefined]);

/** The reserve report's shortcuts (spec §2): last week, last month, last three months. */
export function reservePresets(t: (k: string) => string): { label: string; value: DayRange }[] {
  const today = zoneNow();
  return [
    { label: t('range.lastWeek'), value: [today.subtract(6, 'day'), today] },
    { label: t('range.lastMonth'), value: [today.subtract(1, 'month'), today] },
    { label: t('range.lastThreeMonths'), value: [today.subtract(3, 'month'), today] },
  ];
}

/**
 * A day range for the reports: the reserve report's shortcuts, at most three months, and — for the
 * settlement and remittance pickers — no day after today + 2 (release dates lie ahead).
 */
export function ReportRange({
  value,
  onChange,
  limitFuture = true,
  allowClear = true,
  'aria-label': ariaLabel,
}: {
  value?: DayRange | null;
  onChange?: (v: DayRange | null) => void;
  limitFuture?: boolean;
  allowClear?: boolean;
  'aria-label'?: string;
}) {
  const { t } = useTranslation('report');
  return <RangePicker aria-label={ariaLabel} value={value} onChange={onChange} allowClear={allowClear} presets={reservePresets(t)} limitFuture={limitFuture} style={{ width: '100%' }} />;
}

/** Form rule: a range longer than three months shows the spec's message. */
export const threeMonthRule = (t: (k: string) => string): NonNullable<FormItemProps['rules']>[number] => ({
  validator: (_, v: DayRange | null) => (v && v[1].diff(v[0], 'day') > MAX_RANGE_DAYS ? Promise.reject(new Error(t('range.tooLong'))) : Promise.resolve()),
});
