import { useCallback, useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter } from '../../components/date-range-filter';
import { MerchantSelect } from '../../components/merchant-select';
import { useBillList } from './api/get-bill-list';
import { ReportExportButton } from './components/report-export-button';
import { ReportFilterForm } from './components/report-filter-form';
import { fromRange, threeMonthRule, toRange, type DayRange } from './components/report-range';
import { ReportTable } from './components/report-table';
import { billColumns } from './report.columns';
import { toWire, useReportFilters, type ReportFilters } from './use-report-filters';

interface Values {
  period: DayRange | null;
  merId?: string;
}

/** /report/bill (spec §2 Bill report): settlement date range (preset: last 7 days) and merchant; search, export. */
export function BillReportPage() {
  const { t } = useTranslation('report');
  const { filters, apply, page, size, pagination } = useReportFilters();
  const wire = toWire(filters);
  const { data, isFetching } = useBillList({ ...wire, page, size }, !!wire.beginDate);
  const columns = useMemo(() => billColumns(t), [t]);
  const toForm = useCallback((f: ReportFilters): Values => ({ period: toRange(f.beginDate, f.endDate), merId: f.merId }), []);
  const fromForm = useCallback((v: Values): ReportFilters => {
    const [beginDate, endDate] = fromRange(v.period);
    return { beginDate, endDate, merId: v.merId, paymentBrand: [] };
  }, []);
  return (
    <PageContainer>
      <ReportFilterForm<Values>
        value={filters}
        toForm={toForm}
        fromForm={fromForm}
        onSearch={apply}
        fields={[
          <Form.Item name="period" label={t('filter.settleDate')} rules={[{ required: true, message: t('range.required') }, threeMonthRule(t)]}>
            <DateRangeFilter allowClear={false} aria-label={t('filter.settleDate')} />
          </Form.Item>,
          <Form.Item name="merId" label={t('filter.merId')}>
            <MerchantSelect placeholder={t('filter.all')} aria-label={t('filter.merId')} />
          </Form.Item>,
        ]}
        buttons={<ReportExportButton path="bill/export" query={wire} disabled={!wire.beginDate} />}
      />
      <ReportTable
        label={t('title.bill')}
        columns={columns}
        rows={data?.content ?? []}
        total={data?.totalElements ?? 0}
        loading={isFetching}
        pagination={pagination}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`}
        scrollX={1500}
      />
    </PageContainer>
  );
}
