import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm } from '@portal/contract';
import { Can } from '../../components/can';
import { PageContainer } from '../../components/page-container';
import { ReserveReport } from '../report/reserve-report';
import { CashCalendar } from './components/cash-calendar';
import './dashboard.css';

/** /dashboard (spec §2): the reserve release report, with the cash calendar above it. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  return (
    <PageContainer card={false}>
      <CashCalendar />
      <Can permission={Perm.reportReserve}>
        <Card variant="borderless" title={t('reserve.title')}>
          <ReserveReport />
        </Card>
      </Can>
    </PageContainer>
  );
}
