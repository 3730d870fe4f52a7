import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { useBillList } from './api/get-bill-list';
import { merchantField, ReportView, reportForm, requiredPeriodField, useReport } from './components/report-view';
import { BILL_HIDDEN, billColumns } from './report.columns';

const FORM = reportForm(['period', 'merId']);

/** /report/bill (spec §2 Bill report): settlement date range (preset: last 7 days) and merchant; search, export. */
export function BillReportPage() {
  const { t } = useTranslation('report');
  const report = useReport();
  const list = useBillList(report.query, !!report.wire.beginDate);
  const columns = useMemo(() => billColumns(t), [t]);
  return (
    <PageContainer>
      <ReportView
        report={report}
        form={FORM}
        fields={[requiredPeriodField(t, t('filter.settleDate')), merchantField(t)]}
        exportPath="bill/export"
        canExport={!!report.wire.beginDate}
        label={t('title.bill')}
        columns={columns}
        list={list}
        rowKey={(r) => `${r.txnSetDate}|${r.clientid}|${r.reconBusiness}|${r.merTxnSet}`}
        table="report.bill"
        defaultHidden={BILL_HIDDEN}
      />
    </PageContainer>
  );
}
