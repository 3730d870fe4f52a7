import type { ReactNode } from 'react';
import { Form, Space } from 'antd';
import { DateRangeFilter } from '../../../components/date-range-filter';
import { MerchantSelect } from '../../../components/merchant-select';
import { toWire, useReportFilters, type ReportFilters } from '../use-report-filters';
import { ReportExportButton } from './report-export-button';
import type { ReportExportPath } from '../api/report-client';
import { ReportFilterForm } from './report-filter-form';
import { fromRange, threeMonthRule, toRange, type DayRange } from './report-range';
import { ReportTable, type ReportColumn } from './report-table';
import { ScheduleButton } from '../../schedule/schedule-button';
import type { ScheduleKind } from '@portal/contract';

/** The scheduled-report kind of each export path (issue 13: "Schedule" beside "Export"). */
const SCHEDULE_KIND: Record<string, ScheduleKind> = {
  'bill/export': 'report.bill',
  'transfer/export': 'report.transfer',
  'txn/newExport': 'report.summary',
  'txn/export': 'report.summaryOld',
  'reserve/export': 'report.reserve',
};

type T = (k: string) => string;

/** A report's filter fields: up to three day ranges, the merchant, the type and the brands. */
export interface ReportFormValues {
  period?: DayRange | null;
  remit?: DayRange | null;
  release?: DayRange | null;
  merId?: string;
  gwTranType?: string;
  paymentBrand?: string[];
}
type Field = keyof ReportFormValues;

/** Each range field and its pair of URL filters. */
const RANGES = {
  period: ['beginDate', 'endDate'],
  remit: ['remitBeginDate', 'remitEndDate'],
  release: ['releaseBeginDate', 'releaseEndDate'],
} as const;

/**
 * The mapping between the URL filters and the form of a report that shows `fields` (a search
 * keeps only those; the brands are an empty list when the report has none).
 */
export function reportForm(fields: readonly Field[]) {
  const ranges = (Object.keys(RANGES) as (keyof typeof RANGES)[]).filter((r) => fields.includes(r));
  const toForm = (f: ReportFilters): ReportFormValues => {
    const v: ReportFormValues = {};
    for (const r of ranges) v[r] = toRange(f[RANGES[r][0]], f[RANGES[r][1]]);
    if (fields.includes('merId')) v.merId = f.merId;
    if (fields.includes('gwTranType')) v.gwTranType = f.gwTranType;
    if (fields.includes('paymentBrand')) v.paymentBrand = f.paymentBrand;
    return v;
  };
  const fromForm = (v: ReportFormValues): ReportFilters => {
    const f: ReportFilters = { paymentBrand: fields.includes('paymentBrand') ? (v.paymentBrand ?? []) : [] };
    for (const r of ranges) [f[RANGES[r][0]], f[RANGES[r][1]]] = fromRange(v[r]);
    if (fields.includes('merId')) f.merId = v.merId;
    if (fields.includes('gwTranType')) f.gwTranType = v.gwTranType;
    return f;
  };
  return { toForm, fromForm };
}

/** The required first range of the bill, transfer and summary reports (preset, cannot be cleared). */
export const requiredPeriodField = (t: T, label: string) => (
  <Form.Item name="period" label={label} rules={[{ required: true, message: t('range.required') }, threeMonthRule(t)]}>
    <DateRangeFilter allowClear={false} aria-label={label} />
  </Form.Item>
);

/** The merchant filter of every report ('All' when empty). */
export const merchantField = (t: T) => (
  <Form.Item name="merId" label={t('filter.merId')}>
    <MerchantSelect placeholder={t('filter.all')} aria-label={t('filter.merId')} />
  </Form.Item>
);

/** A report's filters in the URL, as the wire query and with the page for the list. */
export function useReport(opts: { brands?: boolean } = {}) {
  const { filters, apply, page, size, pagination } = useReportFilters();
  const wire = toWire(filters, opts);
  return { filters, apply, pagination, wire, query: { ...wire, page, size } };
}

/**
 * A report screen below its title: the filter form (search, export locked 3 s, `buttons`) and the
 * table with its paging and per-currency page totals.
 */
export function ReportView<R extends object>({
  report,
  form,
  formKey,
  fields,
  exportPath,
  canExport,
  buttons,
  label,
  columns,
  list,
  rowKey,
  table,
  defaultHidden,
}: {
  report: ReturnType<typeof useReport>;
  form: ReturnType<typeof reportForm>;
  formKey?: string;
  fields: ReactNode[];
  exportPath: ReportExportPath;
  canExport: boolean;
  buttons?: ReactNode;
  label: string;
  columns: ReportColumn<R>[];
  list: { data?: { content: R[]; totalElements: number }; isFetching: boolean };
  rowKey: (r: R) => string;
  /** The table's name for the user's remembered column choice, and the columns it leaves out by default. */
  table: string;
  defaultHidden?: readonly string[];
}) {
  return (
    <>
      <ReportFilterForm<ReportFormValues>
        key={formKey}
        value={report.filters}
        toForm={form.toForm}
        fromForm={form.fromForm}
        onSearch={report.apply}
        fields={fields}
        buttons={
          <Space wrap>
            <ReportExportButton path={exportPath} query={report.wire} disabled={!canExport} />
            {SCHEDULE_KIND[exportPath] && <ScheduleButton kind={SCHEDULE_KIND[exportPath]} params={{ ...report.wire }} disabled={!canExport} />}
            {buttons}
          </Space>
        }
      />
      <ReportTable
        label={label}
        columns={columns}
        rows={list.data?.content ?? []}
        total={list.data?.totalElements ?? 0}
        loading={list.isFetching}
        pagination={report.pagination}
        rowKey={rowKey}
        table={table}
        defaultHidden={defaultHidden}
      />
    </>
  );
}
