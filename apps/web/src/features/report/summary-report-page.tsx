import { useCallback, useMemo } from 'react';
import { Form, Select, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BRANDS, SUMMARY_TYPE_FILTERS } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter } from '../../components/date-range-filter';
import { MerchantSelect } from '../../components/merchant-select';
import { useSummaryList } from './api/get-summary-list';
import { ReportExportButton } from './components/report-export-button';
import { ReportFilterForm } from './components/report-filter-form';
import { fromRange, threeMonthRule, toRange, type DayRange } from './components/report-range';
import { ReportTable } from './components/report-table';
import { summaryColumns } from './report.columns';
import { toWire, useReportFilters, type ReportFilters } from './use-report-filters';

interface Values {
  period: DayRange | null;
  merId?: string;
  gwTranType?: string;
  paymentBrand?: string[];
}

const BRAND_OPTIONS = BRANDS.map((b) => ({ value: b.code, label: b.name }));

/**
 * /report/txn (spec §2 Daily summary report by payment brand). `?version=old` shows the original
 * report: same filters without the brand, no brand column; the link switches back and forth.
 */
export function SummaryReportPage() {
  const { t } = useTranslation('report');
  const [params] = useSearchParams();
  const old = params.get('version') === 'old';
  const { filters, apply, page, size, pagination } = useReportFilters();
  const wire = toWire(filters, { brands: !old });
  const { data, isFetching } = useSummaryList({ ...wire, page, size }, old, !!wire.beginDate);
  const columns = useMemo(() => summaryColumns(t, old), [t, old]);
  const toForm = useCallback(
    (f: ReportFilters): Values => ({ period: toRange(f.beginDate, f.endDate), merId: f.merId, gwTranType: f.gwTranType, paymentBrand: f.paymentBrand }),
    [],
  );
  const fromForm = useCallback((v: Values): ReportFilters => {
    const [beginDate, endDate] = fromRange(v.period);
    return { beginDate, endDate, merId: v.merId, gwTranType: v.gwTranType, paymentBrand: v.paymentBrand ?? [] };
  }, []);

  const switchTo = new URLSearchParams(params);
  if (old) switchTo.delete('version');
  else {
    switchTo.set('version', 'old');
    switchTo.delete('paymentBrand');
  }
  switchTo.set('page', '1');

  const fields = [
    <Form.Item name="period" label={t('filter.txnDate')} rules={[{ required: true, message: t('range.required') }, threeMonthRule(t)]}>
      <DateRangeFilter allowClear={false} aria-label={t('filter.txnDate')} />
    </Form.Item>,
    <Form.Item name="merId" label={t('filter.merId')}>
      <MerchantSelect placeholder={t('filter.all')} aria-label={t('filter.merId')} />
    </Form.Item>,
    <Form.Item name="gwTranType" label={t('filter.type')}>
      <Select allowClear aria-label={t('filter.type')} placeholder={t('filter.all')} options={SUMMARY_TYPE_FILTERS.map((v) => ({ value: v, label: v }))} />
    </Form.Item>,
  ];
  if (!old) {
    fields.push(
      <Form.Item name="paymentBrand" label={t('filter.brand')}>
        <Select mode="multiple" allowClear aria-label={t('filter.brand')} maxTagCount="responsive" placeholder={t('filter.all')} showSearch={{ optionFilterProp: 'label' }} options={BRAND_OPTIONS} />
      </Form.Item>,
    );
  }

  return (
    <PageContainer title={old ? t('title.summaryOld') : t('title.summary')}>
      {old && <Typography.Paragraph type="secondary">{t('summary.oldHint')}</Typography.Paragraph>}
      <ReportFilterForm<Values>
        key={old ? 'old' : 'new'}
        value={filters}
        toForm={toForm}
        fromForm={fromForm}
        onSearch={apply}
        fields={fields}
        buttons={
          <>
            <ReportExportButton path={old ? 'txn/export' : 'txn/newExport'} query={wire} disabled={!wire.beginDate} />
            <Link to={`?${switchTo.toString()}`} className="report-switch">
              <SwapOutlined /> {old ? t('action.newVersion') : t('action.oldVersion')}
            </Link>
          </>
        }
      />
      <ReportTable
        label={old ? t('title.summaryOld') : t('title.summary')}
        columns={columns}
        rows={data?.content ?? []}
        total={data?.totalElements ?? 0}
        loading={isFetching}
        pagination={pagination}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.paymentBrand ?? ''}|${r.txnType}|${r.merTxnCur}|${r.merTxnSet}|${r.instCodeBriefName}`}
        scrollX={old ? 1700 : 1850}
      />
    </PageContainer>
  );
}
