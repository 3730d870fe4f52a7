import { useState } from 'react';
import { Button } from 'antd';
import { ScheduleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Perm, SCHEDULE_PERMISSION, type ScheduleKind } from '@portal/contract';
import { usePermissions } from '../../lib/session';
import { ScheduleDialog, type ScheduleTarget } from './schedule-dialog';

/**
 * "Schedule" on a list or report screen: opens the schedule dialog with the screen's current
 * filters. Shown only to a user who may export that screen and has the file report.
 */
export function ScheduleButton({ kind, params, disabled }: { kind: ScheduleKind; params: Record<string, unknown>; disabled?: boolean }) {
  const { t } = useTranslation('schedule');
  const held = usePermissions();
  const [target, setTarget] = useState<ScheduleTarget | null>(null);
  if (!held.includes(SCHEDULE_PERMISSION[kind]) || !held.includes(Perm.reportFile)) return null;
  return (
    <>
      <Button icon={<ScheduleOutlined />} disabled={disabled} onClick={() => setTarget({ kind, params })}>
        {t('button')}
      </Button>
      <ScheduleDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
