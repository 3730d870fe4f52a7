import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { ScheduleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Perm, SCHEDULE_PERMISSION, type ScheduleKind } from '@portal/contract';
import { usePermissions } from '../../lib/session';
import type { ScheduleTarget } from './schedule-dialog';

// The dialog (time picker, number input, its form) loads with the first click, not with every list.
const ScheduleDialog = lazy(() => import('./schedule-dialog').then((m) => ({ default: m.ScheduleDialog })));

/**
 * "Schedule" on a list or report screen: opens the schedule dialog with the screen's current
 * filters. Shown only to a user who may export that screen and has the file report.
 */
export function ScheduleButton({ kind, params, disabled }: { kind: ScheduleKind; params: Record<string, unknown>; disabled?: boolean }) {
  const { t } = useTranslation('schedule');
  const held = usePermissions();
  const [target, setTarget] = useState<ScheduleTarget | null>(null);
  const [opened, setOpened] = useState(false);
  if (!held.includes(SCHEDULE_PERMISSION[kind]) || !held.includes(Perm.reportFile)) return null;
  return (
    <>
      <Button
        icon={<ScheduleOutlined />}
        disabled={disabled}
        onClick={() => {
          setOpened(true);
          setTarget({ kind, params });
        }}
      >
        {t('button')}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ScheduleDialog target={target} onClose={() => setTarget(null)} />
        </Suspense>
      )}
    </>
  );
}
