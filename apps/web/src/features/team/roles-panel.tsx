import { useState } from 'react';
import { Button, Flex, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { permissionGroups, type TeamRoleRow } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { formatPlatform } from '../../lib/time';
import { formatAmount } from '../../components/money';
import { useApp } from '../../app/lazy-app';
import { removeRole, useRoleList } from './api/roles';
import { RoleDialog } from './components/role-dialog';
import { permKey } from './components/permission-picker';
import { teamQueries } from './api/team-queries';

/** The permissions of a role by menu area, in the user's language ("Transactions: List, Refund"). */
function PermissionsByArea({ codes }: { codes: string[] }) {
  const { t } = useTranslation(['roles', 'team', 'menu']);
  return (
    <div style={{ display: 'grid', gap: 2 }}>
      {permissionGroups(codes).map((g) => (
        <div key={g.menu}>
          <Typography.Text strong>{g.menu === 'other' ? t('team:permGroupOther') : t(`menu:${g.menu}`)}</Typography.Text>
          {t('roles:areaSeparator')}
          {g.permissions.map((p) => t(`team:${permKey(p)}`)).join(t('roles:listSeparator'))}
        </div>
      ))}
    </div>
  );
}

/** The merchant's named roles (issue 28): define once, assign to many users; a change applies to all of them. */
export function RolesPanel({ canManage }: { canManage: boolean }) {
  const { t, i18n } = useTranslation(['roles', 'team']);
  const money = (v: string | null, cur: string) => (v === null ? t('caps.none') : formatAmount(v, cur, i18n.language));
  const { modal, message } = useApp();
  const qc = useQueryClient();
  const list = useRoleList();
  const [editing, setEditing] = useState<TeamRoleRow | null>(null);
  const [open, setOpen] = useState(false);
  const edit = (r: TeamRoleRow | null) => {
    setEditing(r);
    setOpen(true);
  };
  const remove = (r: TeamRoleRow) =>
    modal.confirm({
      title: t('confirmRemove', { name: r.name }),
      okText: t('team:action.remove'),
      okButtonProps: { danger: true },
      cancelText: t('team:form.cancel'),
      onOk: async () => {
        try {
          await removeRole(r.id);
          message.success(t('removed', { name: r.name }));
        } catch (e) {
          message.error(e instanceof RequestError ? e.message : t('saveError'));
        }
        await qc.invalidateQueries({ predicate: teamQueries });
      },
    });

  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('intro')}</Typography.Text>
        {canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)}>
            {t('newRole')}
          </Button>
        )}
      </Flex>
      <Table<TeamRoleRow>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: <Typography.Text type="secondary">{t('empty')}</Typography.Text> }}
        columns={[
          {
            title: t('column.name'),
            dataIndex: 'name',
            width: 180,
            render: (v: string, r) => (
              <>
                <Typography.Text strong>{v}</Typography.Text>
                {r.description && (
                  <div>
                    <Typography.Text type="secondary">{r.description}</Typography.Text>
                  </div>
                )}
              </>
            ),
          },
          { title: t('column.permissions'), dataIndex: 'permissions', render: (v: string[]) => <PermissionsByArea codes={v} /> },
          {
            title: t('column.caps'),
            dataIndex: 'refundCaps',
            width: 220,
            render: (v: TeamRoleRow['refundCaps']) =>
              Object.entries(v).map(([cur, c]) => <div key={cur}>{t('caps.line', { currency: cur, perRefund: money(c.perRefund, cur), perDay: money(c.perDay, cur) })}</div>),
          },
          { title: t('column.users'), dataIndex: 'users', width: 90, align: 'right' },
          { title: t('column.updated'), dataIndex: 'updateTime', width: 165, render: (v: string) => formatPlatform(v) },
          ...(canManage
            ? [
                {
                  title: t('team:column.actions'),
                  key: 'actions',
                  width: 150,
                  render: (_: unknown, r: TeamRoleRow) => (
                    <Flex gap={0} wrap>
                      <Button type="link" size="small" onClick={() => edit(r)} aria-label={`${t('team:action.edit')} ${r.name}`}>
                        {t('team:action.edit')}
                      </Button>
                      <Button type="link" size="small" danger onClick={() => remove(r)} aria-label={`${t('team:action.remove')} ${r.name}`}>
                        {t('team:action.remove')}
                      </Button>
                    </Flex>
                  ),
                },
              ]
            : []),
        ]}
      />
      <RoleDialog role={editing} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
