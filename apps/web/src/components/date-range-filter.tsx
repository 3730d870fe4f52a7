import type { CSSProperties } from 'react';
import generateRangePicker from 'antd/es/date-picker/generatePicker/generateRangePicker';
import dayjsGenerateConfig from '@rc-component/picker/generate/dayjs';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MAX_RANGE_DAYS, REPORT_FUTURE_DAYS } from '@portal/contract';
import { zoneNow } from '../lib/time';

export type DateRange = [Dayjs, Dayjs];

/**
 * antd's RangePicker made as antd makes it (`DatePicker.RangePicker` is this factory with the same
 * dayjs config), without the single-date pickers antd's DatePicker module builds beside it: the
 * list screens draw only ranges (issue 16, target 6: 6 KB gzip off every first page with a range).
 */
const AntRangePicker = generateRangePicker<Dayjs>(dayjsGenerateConfig);

/** Days after today still selectable (spec §5, §9: beyond today + 2 days is disabled). */
const FUTURE_DAYS = REPORT_FUTURE_DAYS;

/** Shortcuts of spec §5: today, last week, last month, last three months. */
export function rangePresets(t: (k: string) => string, withTime: boolean): { label: string; value: DateRange }[] {
  const now = zoneNow();
  const end = withTime ? now.endOf('day') : now;
  const start = (d: Dayjs) => (withTime ? d.startOf('day') : d);
  return [
    { label: t('txn:range.today'), value: [start(now), end] },
    { label: t('txn:range.lastWeek'), value: [start(now.subtract(6, 'day')), end] },
    { label: t('txn:range.lastMonth'), value: [start(now.subtract(1, 'month')), end] },
    { label: t('txn:range.lastThreeMonths'), value: [start(now.subtract(3, 'month')), end] },
  ];
}

/** True when a range spans more than three months (spec §5). */
export const exceedsThreeMonths = (r: DateRange | null | undefined) => !!r && r[1].diff(r[0], 'day', true) > MAX_RANGE_DAYS;

interface RangeProps {
  value?: DateRange | null;
  onChange?: (v: DateRange | null) => void;
  withTime?: boolean;
  allowClear?: boolean;
  id?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

/**
 * The range picker under every date-range filter: the given shortcuts, ranges longer than three
 * months cannot be picked, nor (with `limitFuture`, the default) days beyond today + 2.
 */
export function RangePicker({
  value,
  onChange,
  withTime = false,
  allowClear = true,
  id,
  style,
  'aria-label': ariaLabel,
  presets,
  limitFuture = true,
}: RangeProps & { presets: { label: string; value: DateRange }[]; limitFuture?: boolean }) {
  const limit = zoneNow().add(FUTURE_DAYS, 'day').endOf('day');
  return (
    <AntRangePicker
      id={id}
      style={style}
      // A date-time range stacks its two fields on a phone (global.css): side by side at 390 px
      // each field cut its end time to "2026-12-03 23:59:5" (issue 53).
      className={withTime ? 'range-with-time' : undefined}
      aria-label={ariaLabel}
      value={value ?? null}
      onChange={(v) => onChange?.(v && v[0] && v[1] ? [v[0], v[1]] : null)}
      showTime={withTime ? { defaultValue: [zoneNow().startOf('day'), zoneNow().endOf('day')] } : false}
      format={withTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD'}
      allowClear={allowClear}
      // Keyboard trap (issue 29, finding 1): antd locks the focus on a range's empty field (its
      // focus lock sends Tab from the start field back to it while that field has no value), so
      // Tab — and Escape then Tab — never left an empty range. A range that may be cleared lets
      // either field be empty while the person moves through it; a half-filled range still
      // reaches the filter as no range (onChange below), as a cleared one does.
      allowEmpty={allowClear ? [true, true] : undefined}
      presets={presets}
      disabledDate={(current, info) => {
        if (limitFuture && current.isAfter(limit)) return true;
        const from = info?.from;
        return !!from && Math.abs(current.diff(from, 'day')) > MAX_RANGE_DAYS;
      }}
    />
  );
}

/**
 * A date (or date-time) range with the spec's shortcuts; days beyond today + 2 and ranges longer
 * than three months cannot be picked.
 */
export function DateRangeFilter(props: RangeProps) {
  const { t } = useTranslation('txn');
  return <RangePicker {...props} presets={rangePresets(t, !!props.withTime)} />;
}
