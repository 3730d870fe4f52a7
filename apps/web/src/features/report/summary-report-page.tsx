import { useMemo } from 'react';
import { Form, Select, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BRANDS, SUMMARY_TYPE_FILTERS } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { useSummaryList } from './api/get-summary-list';
import { merchantField, ReportView, reportForm, requiredPeriodField, useReport } from './components/report-view';
import { SUMMARY_HIDDEN, summaryColumns } from './report.columns';

const FORM = reportForm(['period', 'merId', 'gwTranType', 'paymentBrand']);
const BRAND_OPTIONS = BRANDS.map((b) => ({ value: b.code, label: b.name }));

/**
 * /report/txn (spec §2 Daily summary report by payment brand). `?version=old` shows the original
 * report: same filters without the brand, no brand column; the link switches back and forth.
 */
export function SummaryReportPage() {
  const { t } = useTranslation('report');
  const { t: tx } = useTranslation('txn');
  const typeName = (code: string) => tx(`type.${code}`, { defaultValue: code });
  const [params] = useSearchParams();
  const old = params.get('version') === 'old';
  const report = useReport({ brands: !old });
  const list = useSummaryList(report.query, old, !!report.wire.beginDate);
  const columns = useMemo(() => summaryColumns(t, old, (code) => tx(`type.${code}`, { defaultValue: code })), [t, tx, old]);

  const switchTo = new URLSearchParams(params);
  if (old) switchTo.delete('version');
  else {
    switchTo.set('version', 'old');
    switchTo.delete('paymentBrand');
  }
  switchTo.set('page', '1');

  const fields = [
    requiredPeriodField(t, t('filter.txnDate')),
    merchantField(t),
    <Form.Item key="gwTranType" name="gwTranType" label={t('filter.type')}>
      <Select
        allowClear
        aria-label={t('filter.type')}
        placeholder={t('filter.all')}
        showSearch={{ optionFilterProp: 'label' }}
        options={SUMMARY_TYPE_FILTERS.map((v) => ({ value: v, label: `${v} · ${typeName(v)}` }))}
      />
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
      <ReportView
        report={report}
        form={FORM}
        formKey={old ? 'old' : 'new'}
        fields={fields}
        exportPath={old ? 'txn/export' : 'txn/newExport'}
        canExport={!!report.wire.beginDate}
        buttons={
          <Link to={`?${switchTo.toString()}`} className="report-switch">
            <SwapOutlined /> {old ? t('action.newVersion') : t('action.oldVersion')}
          </Link>
        }
        label={old ? t('title.summaryOld') : t('title.summary')}
        columns={columns}
        list={list}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.paymentBrand ?? ''}|${r.txnType}|${r.merTxnCur}|${r.merTxnSet}|${r.instCodeBriefName}`}
        table={old ? 'report.summaryOld' : 'report.summary'}
        defaultHidden={SUMMARY_HIDDEN}
      />
    </PageContainer>
  );
}
