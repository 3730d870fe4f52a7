import type { TFunction } from 'i18next';
import { Button, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TeamUserRow } from '@portal/contract';
import { formatPlatform } from '../../lib/time';

export const STATUS_COLOR: Record<TeamUserRow['status'], string> = { ACTIVE: 'success', INACTIVE: 'warning', DISABLED: 'default' };

export interface UserActions {
  canManage: boolean;
  onEdit: (u: TeamUserRow) => void;
  onStatus: (u: TeamUserRow, next: 'ACTIVE' | 'DISABLED') => void;
  onReset: (u: TeamUserRow) => void;
  onRemove: (u: TeamUserRow) => void;
}

/** Columns of /merchant/user: spec §6 user fields, plus merchant, role, two-factor and last sign-in. */
export function userColumns(t: TFunction<'team'>, a: UserActions): ColumnsType<TeamUserRow> {
  const cols: ColumnsType<TeamUserRow> = [
    { title: t('column.userName'), dataIndex: 'userName', width: 150, fixed: 'left', render: (v: string, r) => (r.self ? <Space size={4}>{v}<Tag>{t('you')}</Tag></Space> : v) },
    { title: t('column.userType'), dataIndex: 'userType', width: 110, render: (v: TeamUserRow['userType']) => t(`userType.${v}`) },
    { title: t('column.role'), dataIndex: 'role', width: 130, render: (v: TeamUserRow['role'], r) => (r.roleName ?? (v ? t(`role.${v}.name`) : '')) },
    { title: t('column.merchant'), dataIndex: 'merName', width: 190, render: (v: string, r) => <Tooltip title={r.merIds.join(', ')}>{`${r.merId} - ${v}`}</Tooltip> },
    { title: t('column.email'), dataIndex: 'email', width: 210 },
    { title: t('column.phone'), dataIndex: 'phone', width: 120 },
    { title: t('column.status'), dataIndex: 'status', width: 110, render: (v: TeamUserRow['status']) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag> },
    { title: t('column.twoFactor'), dataIndex: 'twoFactor', width: 110, render: (v: boolean) => (v ? t('twoFactor.on') : t('twoFactor.off')) },
    { title: t('column.lastLogin'), dataIndex: 'lastLoginTime', width: 165, render: (v: string | null) => (v ? formatPlatform(v) : t('never')) },
    { title: t('column.accessEnds'), dataIndex: 'accessEndsOn', width: 130, render: (v: string | null) => v ?? '' },
    { title: t('column.createTime'), dataIndex: 'createTime', width: 165, render: (v: string) => formatPlatform(v) },
  ];
  if (a.canManage) {
    cols.push({
      title: t('column.actions'),
      key: 'actions',
      width: 290,
      fixed: 'right',
      render: (_: unknown, r) =>
        r.self ? null : (
          <Space size={0} wrap>
            {r.status !== 'DISABLED' && (
              <Button type="link" size="small" onClick={() => a.onEdit(r)} aria-label={`${t('action.edit')} ${r.userName}`}>
                {t('action.edit')}
              </Button>
            )}
            {r.status === 'DISABLED' ? (
              <Button type="link" size="small" onClick={() => a.onStatus(r, 'ACTIVE')} aria-label={`${t('action.enable')} ${r.userName}`}>
                {t('action.enable')}
              </Button>
            ) : (
              <Button type="link" size="small" onClick={() => a.onStatus(r, 'DISABLED')} aria-label={`${t('action.disable')} ${r.userName}`}>
                {t('action.disable')}
              </Button>
            )}
            {r.status !== 'DISABLED' && (
              <Button type="link" size="small" onClick={() => a.onReset(r)} aria-label={`${t('action.resetPassword')} ${r.userName}`}>
                {t('action.resetPassword')}
              </Button>
            )}
            <Button type="link" size="small" danger onClick={() => a.onRemove(r)} aria-label={`${t('action.remove')} ${r.userName}`}>
              {t('action.remove')}
            </Button>
          </Space>
        ),
    });
  }
  return cols;
}
