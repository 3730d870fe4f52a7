import { Tag } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined, MinusCircleOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { pblStateOf } from '@portal/contract';

const LOOK = {
  paid: { color: 'success', icon: <CheckCircleOutlined /> },
  processing: { color: 'processing', icon: <SyncOutlined spin /> },
  closed: { color: 'default', icon: <MinusCircleOutlined /> },
  notPaid: { color: 'warning', icon: <ClockCircleOutlined /> },
} as const;

/** The order's status by the rule of spec §4 (Paid / Payment processing / Closed / Not paid). */
export function PblStatusTag({ status, openStatus, testId = 'pbl-status' }: { status: string; openStatus: string; testId?: string }) {
  const { t } = useTranslation('payByLink');
  const s = pblStateOf({ status, openStatus });
  return (
    <Tag color={LOOK[s].color} icon={LOOK[s].icon} data-testid={testId}>
      {t(`status.${s}`)}
    </Tag>
  );
}
