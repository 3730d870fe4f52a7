import { useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useReserveList } from './api/get-reserve-list';
import { ReportRange, threeMonthRule } from './components/report-range';
import { merchantField, ReportView, reportForm, useReport } from './components/report-view';
import { reserveColumns } from './report.columns';

const FORM = reportForm(['period', 'release', 'remit', 'merId']);

/**
 * The reserve release report (spec §2, on /dashboard and /report/reserve): settlement (default the
 * last 7 days), release and remittance ranges with the shortcuts last week / month / three months
 * (settlement and remittance pickers stop at today + 2), merchant; search, export.
 */
export function ReserveReport() {
  const { t } = useTranslation('report');
  const report = useReport();
  const { wire } = report;
  const hasRange = !!(wire.beginDate || wire.releaseBeginDate || wire.remitBeginDate);
  const list = useReserveList(report.query, hasRange);
  const columns = useMemo(() => reserveColumns(t), [t]);
  return (
    <ReportView
      report={report}
      form={FORM}
      fields={[
        <Form.Item
          key="period"
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
        <Form.Item key="release" name="release" label={t('filter.releaseDate')} rules={[threeMonthRule(t)]}>
          <ReportRange limitFuture={false} aria-label={t('filter.releaseDate')} />
        </Form.Item>,
        <Form.Item key="remit" name="remit" label={t('filter.remitDate')} rules={[threeMonthRule(t)]}>
          <ReportRange aria-label={t('filter.remitDate')} />
        </Form.Item>,
        merchantField(t),
      ]}
      exportPath="reserve/export"
      canExport={hasRange}
      label={t('title.reserve')}
      columns={columns}
      list={list}
      rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.business}|${r.merTxnSet}`}
      table="report.reserve"
    />
  );
}
