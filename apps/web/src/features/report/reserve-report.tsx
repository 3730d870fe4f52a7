import { useCallback, useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { MerchantSelect } from '../../components/merchant-select';
import { useReserveList } from './api/get-reserve-list';
import { ReportExportButton } from './components/report-export-button';
import { ReportFilterForm } from './components/report-filter-form';
import { fromRange, ReportRange, threeMonthRule, toRange, type DayRange } from './components/report-range';
import { ReportTable } from './components/report-table';
import { reserveColumns } from './report.columns';
import { toWire, useReportFilters, type ReportFilters } from './use-report-filters';

interface Values {
  period: DayRange | null;
  release: DayRange | null;
  remit: DayRange | null;
  merId?: string;
}

/**
 * The reserve release report (spec §2, on /dashboard and /report/reserve): settlement (default the
 * last 7 days), release and remittance ranges with the shortcuts last week / month / three months
 * (settlement and remittance pickers stop at today + 2), merchant; search, export.
 */
export function ReserveReport() {
  const { t } = useTranslation('report');
  const { filters, apply, page, size, pagination } = useReportFilters();
  const wire = toWire(filters);
  const hasRange = !!(wire.beginDate || wire.releaseBeginDate || wire.remitBeginDate);
  const { data, isFetching } = useReserveList({ ...wire, page, size }, hasRange);
  const columns = useMemo(() => reserveColumns(t), [t]);
  const toForm = useCallback(
    (f: ReportFilters): Values => ({
      period: toRange(f.beginDate, f.endDate),
      release: toRange(f.releaseBeginDate, f.releaseEndDate),
      remit: toRange(f.remitBeginDate, f.remitEndDate),
      merId: f.merId,
    }),
    [],
  );
  const fromForm = useCallback((v: Values): ReportFilters => {
    const [beginDate, endDate] = fromRange(v.period);
    const [releaseBeginDate, releaseEndDate] = fromRange(v.release);
    const [remitBeginDate, remitEndDate] = fromRange(v.remit);
    return { beginDate, endDate, releaseBeginDate, releaseEndDate, remitBeginDate, remitEndDate, merId: v.merId, paymentBrand: [] };
  }, []);
  return (
    <>
      <ReportFilterForm<Values>
        value={filters}
        toForm={toForm}
        fromForm={fromForm}
        onSearch={apply}
        fields={[
          <Form.Item
            name="period"
            label={t('filter.settleDate')}
            dependencies={['release', 'remit']}
            rules={[
              threeMonthRule(t),
              ({ getFieldValue }) => ({
                validator: (_, v) => (v || getFieldValue('release') || getFieldValue('remit') ? Promise.resolve() : Promise.reject(new Error(t('range.oneNeeded')))),
              }),
            ]}
          >
            <ReportRange aria-label={t('filter.settleDate')} />
          </Form.Item>,
          <Form.Item name="release" label={t('filter.releaseDate')} rules={[threeMonthRule(t)]}>
            <ReportRange limitFuture={false} aria-label={t('filter.releaseDate')} />
          </Form.Item>,
          <Form.Item name="remit" label={t('filter.remitDate')} rules={[threeMonthRule(t)]}>
            <ReportRange aria-label={t('filter.remitDate')} />
          </Form.Item>,
          <Form.Item name="merId" label={t('filter.merId')}>
            <MerchantSelect placeholder={t('filter.all')} aria-label={t('filter.merId')} />
          </Form.Item>,
        ]}
        buttons={<ReportExportButton path="reserve/export" query={wire} disabled={!hasRange} />}
      />
      <ReportTable
        label={t('title.reserve')}
        columns={columns}
        rows={data?.content ?? []}
        total={data?.totalElements ?? 0}
        loading={isFetching}
        pagination={pagination}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.business}|${r.merTxnSet}`}
        scrollX={1000}
      />
    </>
  );
}
