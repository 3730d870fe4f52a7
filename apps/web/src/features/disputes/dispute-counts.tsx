import { Card, Statistic } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Perm } from '@portal/contract';
import { useCan } from '../../components/can';
import { DISPUTE_STATES, useDisputeCounts } from './api/disputes-api';
import './disputes.css';

/** The dashboard's disputes card (issue 48): counts per state, each a link to the inbox filtered by it. */
export function DisputeCounts() {
  const can = useCan(Perm.disputeView);
  const { t } = useTranslation('disputes');
  const { data } = useDisputeCounts(can);
  if (!can || !data) return null;
  return (
    <Card variant="borderless" title={t('counts.title')} data-testid="dispute-counts">
      <div className="dispute-counts">
        <Link to="/disputes/list?state=needs_response">
          <Statistic title={t('counts.dueSoon')} value={data.dueSoon} valueStyle={data.dueSoon ? { color: '#cf1322' } : undefined} />
        </Link>
        {DISPUTE_STATES.map((s) => (
          <Link key={s} to={`/disputes/list?state=${s}`}>
            <Statistic title={t(`state.${s}`)} value={data[s]} />
          </Link>
        ))}
      </div>
    </Card>
  );
}
