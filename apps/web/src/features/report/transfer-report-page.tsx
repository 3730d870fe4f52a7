import { useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter } from '../../components/date-range-filter';
import { useTransferList } from './api/get-transfer-list';
import { threeMonthRule } from './components/report-range';
import { merchantField, ReportView, reportForm, requiredPeriodField, useReport } from './components/report-view';
import { TRANSFER_HIDDEN, transferColumns } from './report.columns';

const FORM = reportForm(['period', 'remit', 'merId']);

/**
 * /report/transfer (spec §2 Settlement/transfer report): settlement range (preset, cannot be
 * cleared), remittance range, merchant 'id - name' (clearable); search goes back to the first page.
 */
export function TransferReportPage() {
  const { t } = useTranslation(['report', 'trail']);
  const report = useReport();
  const list = useTransferList(report.query, !!report.wire.beginDate);
  const columns = useMemo(() => transferColumns(t), [t]);
  return (
    <PageContainer>
      <ReportView
        report={report}
        form={FORM}
        fields={[
          requiredPeriodField(t, t('filter.settleDate')),
          <Form.Item key="remit" name="remit" label={t('filter.remitDate')} rules={[threeMonthRule(t)]}>
            <DateRangeFilter aria-label={t('filter.remitDate')} />
          </Form.Item>,
          merchantField(t),
        ]}
        exportPath="transfer/export"
        canExport={!!report.wire.beginDate}
        label={t('title.transfer')}
        columns={columns}
        list={list}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`}
        table="report.transfer"
        defaultHidden={TRANSFER_HIDDEN}
      />
    </PageContainer>
  );
}
