import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm } from '@portal/contract';
import { Can } from '../../components/can';
import { PageContainer } from '../../components/page-container';
import { ReserveReport } from '../report/reserve-report';
import { CashCalendar } from './components/cash-calendar';
// Issue 48: counts of disputes per state.
import { DisputeCounts } from '../disputes/dispute-counts';
import './dashboard.css';

/** /dashboard (spec §2): the reserve release report, with the cash calendar above it. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  return (
    <PageContainer card={false}>
      <CashCalendar />
      <DisputeCounts />
      <Can permission={Perm.reportReserve}>
        <Card variant="borderless" title={t('reserve.title')}>
          <ReserveReport />
        </Card>
      </Can>
    </PageContainer>
  );
}
