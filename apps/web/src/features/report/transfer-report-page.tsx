import { useCallback, useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter } from '../../components/date-range-filter';
import { MerchantSelect } from '../../components/merchant-select';
import { useTransferList } from './api/get-transfer-list';
import { ReportExportButton } from './components/report-export-button';
import { ReportFilterForm } from './components/report-filter-form';
import { fromRange, threeMonthRule, toRange, type DayRange } from './components/report-range';
import { ReportTable } from './components/report-table';
import { transferColumns } from './report.columns';
import { toWire, useReportFilters, type ReportFilters } from './use-report-filters';

interface Values {
  period: DayRange | null;
  remit: DayRange | null;
  merId?: string;
}

/**
 * /report/transfer (spec §2 Settlement/transfer report): settlement range (preset, cannot be
 * cleared), remittance range, merchant 'id - name' (clearable); search goes back to the first page.
 */
export function TransferReportPage() {
  const { t } = useTranslation('report');
  const { filters, apply, page, size, pagination } = useReportFilters();
  const wire = toWire(filters);
  const { data, isFetching } = useTransferList({ ...wire, page, size }, !!wire.beginDate);
  const columns = useMemo(() => transferColumns(t), [t]);
  const toForm = useCallback(
    (f: ReportFilters): Values => ({ period: toRange(f.beginDate, f.endDate), remit: toRange(f.remitBeginDate, f.remitEndDate), merId: f.merId }),
    [],
  );
  const fromForm = useCallback((v: Values): ReportFilters => {
    const [beginDate, endDate] = fromRange(v.period);
    const [remitBeginDate, remitEndDate] = fromRange(v.remit);
    return { beginDate, endDate, remitBeginDate, remitEndDate, merId: v.merId, paymentBrand: [] };
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
          <Form.Item name="remit" label={t('filter.remitDate')} rules={[threeMonthRule(t)]}>
            <DateRangeFilter aria-label={t('filter.remitDate')} />
          </Form.Item>,
          <Form.Item name="merId" label={t('filter.merId')}>
            <MerchantSelect placeholder={t('filter.all')} aria-label={t('filter.merId')} />
          </Form.Item>,
        ]}
        buttons={<ReportExportButton path="transfer/export" query={wire} disabled={!wire.beginDate} />}
      />
      <ReportTable
        label={t('title.transfer')}
        columns={columns}
        rows={data?.content ?? []}
        total={data?.totalElements ?? 0}
        loading={isFetching}
        pagination={pagination}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`}
        scrollX={2000}
      />
    </PageContainer>
  );
}
