import { PageContainer } from '../../components/page-container';
import { ReserveReport } from './reserve-report';

/** /report/reserve: the reserve release report on its own (the same report is on /dashboard). */
export function ReserveReportPage() {
  return (
    <PageContainer>
      <ReserveReport />
    </PageContainer>
  );
}
