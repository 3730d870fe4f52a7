import type { TFunction } from 'i18next';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { AuditRow } from '@portal/contract';
import { formatPlatform } from '../../lib/time';

/** A readable name of an audit action ('user.add' → 'User added'), the code itself when unknown. */
function actionLabel(t: TFunction<'team'>, action: string): string {
  const key = `auditAction.${action.replace(/\./g, '_')}`;
  const s = t(key, { defaultValue: '' });
  return s || action;
}

/** Columns of /merchant/audit: time, who, what, target, address, merchant, outcome. */
export function auditColumns(t: TFunction<'team'>): ColumnsType<AuditRow> {
  return [
    { title: t('audit.column.time'), dataIndex: 'time', width: 165, render: (v: string) => formatPlatform(v) },
    { title: t('audit.column.user'), dataIndex: 'userName', width: 140 },
    { title: t('audit.column.event'), dataIndex: 'action', width: 220, render: (v: string) => actionLabel(t, v) },
    {
      title: t('audit.column.outcome'),
      dataIndex: 'outcome',
      width: 100,
      render: (v: AuditRow['outcome']) => <Tag color={v === 'success' ? 'success' : 'error'}>{t(`audit.outcome.${v}`)}</Tag>,
    },
    { title: t('audit.column.target'), dataIndex: 'target', width: 170 },
    { title: t('audit.column.ip'), dataIndex: 'ip', width: 140 },
    { title: t('audit.column.merchant'), dataIndex: 'merId', width: 160 },
  ];
}
