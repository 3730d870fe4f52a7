import type { TFunction } from 'i18next';
import { Button, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TeamUserRow } from '@portal/contract';
import { displayZone, formatPlatform, zoneOffsetLabel } from '../../lib/time';

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
  // At 1440 px what a manager checks first — status, two-factor, last sign-in, created — is in view
  // beside the actions column (issue 53: they were past it, off-screen); the phone sits under the
  // e-mail, the user type and the access end last.
  // The times are in the user's zone: its label in their headers (issue 53; the cells stay one line).
  const zone = zoneOffsetLabel(displayZone());
  const cols: ColumnsType<TeamUserRow> = [
    {
      title: t('column.userName'),
      dataIndex: 'userName',
      width: 150,
      fixed: 'left',
      render: (v: string, r) =>
        r.self ? (
          <Space size={4}>
            {v}
            <Tag>{t('you')}</Tag>
          </Space>
        ) : (
          v
        ),
    },
    { title: t('column.status'), dataIndex: 'status', width: 100, render: (v: TeamUserRow['status']) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag> },
    { title: t('column.twoFactor'), dataIndex: 'twoFactor', width: 100, render: (v: boolean) => (v ? t('twoFactor.on') : t('twoFactor.off')) },
    { title: `${t('column.lastLogin')} (${zone})`, dataIndex: 'lastLoginTime', width: 150, render: (v: string | null) => (v ? formatPlatform(v).slice(0, 16) : t('never')) },
    { title: `${t('column.createTime')} (${zone})`, dataIndex: 'createTime', width: 150, render: (v: string) => formatPlatform(v).slice(0, 16) },
    { title: t('column.role'), dataIndex: 'role', width: 130, render: (v: TeamUserRow['role'], r) => r.roleName ?? (v ? t(`role.${v}.name`) : '') },
    { title: t('column.merchant'), dataIndex: 'merName', width: 190, render: (v: string, r) => <Tooltip title={r.merIds.join(', ')}>{`${r.merId} - ${v}`}</Tooltip> },
    {
      title: `${t('column.email')} · ${t('column.phone')}`,
      dataIndex: 'email',
      width: 230,
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <span style={{ wordBreak: 'break-all' }}>{v}</span>
          {r.phone && <span style={{ color: 'rgba(0,0,0,0.55)', fontSize: 12 }}>{r.phone}</span>}
        </Space>
      ),
    },
    { title: t('column.userType'), dataIndex: 'userType', width: 110, render: (v: TeamUserRow['userType']) => t(`userType.${v}`) },
    { title: t('column.accessEnds'), dataIndex: 'accessEndsOn', width: 130, render: (v: string | null) => v ?? '' },
  ];
  if (a.canManage) {
    cols.push({
      title: t('column.actions'),
      key: 'actions',
      width: 190,
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
