import { useMemo, useState } from 'react';
import { Button, Divider, Tabs } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Code, Perm, type TeamUserRow } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { PageContainer } from '../../components/page-container';
import { ListTable } from '../../components/list-table';
import { useCan } from '../../components/can';
import { NoAccessResult } from '../errors/no-access-result';
import { useUser } from '../../lib/session';
import { useUserList } from './api/get-user-list';
import { removeUser, resetUserPassword, updateUserStatus } from './api/user-actions';
import { AddUserDialog } from './components/add-user-dialog';
import { EditUserDialog } from './components/edit-user-dialog';
import { UserFilterForm } from './components/user-filter-form';
import { useUserFilters } from './use-team-filters';
import { userColumns } from './user.columns';
import { useApp } from '../../app/lazy-app';
import { RolesPanel } from './roles-panel';
import { FourEyesPanel } from './four-eyes-panel';
import { AccessPanel, ReviewDueBanner } from './access-panel';
// Issue 51: SCIM provisioning and the sign-in IP allow-list.
import { ProvisioningPanel } from '../scim/provisioning-panel';
import { SignInIpPanel } from '../scim/signin-ip-panel';
import { teamQueries } from './api/team-queries';

/** /merchant/user: the merchant's users (main users only), add, edit, enable/disable, reset password, remove. */
export function TeamUserPage() {
  const me = useUser();
  return me.userAdmin ? <TeamUsers /> : <NoAccessResult />;
}

function TeamUsers() {
  const { t } = useTranslation('team');
  const { t: tRoles } = useTranslation('roles');
  const { t: tScim } = useTranslation('scim'); // issue 51
  const { modal, message } = useApp();
  const qc = useQueryClient();
  const { filters, apply, page, size, pagination } = useUserFilters();
  const list = useUserList({ ...filters, page, size });
  const canManage = useCan(Perm.merchantUserManage);
  const canScim = useCan(Perm.teamScimManage); // issue 51
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TeamUserRow | null>(null);
  const refresh = () => qc.invalidateQueries({ predicate: teamQueries });

  const columns = useMemo(
    () =>
      userColumns(t, {
        canManage,
        onEdit: (u) => setEditing(u),
        onStatus: (u: TeamUserRow, next) =>
          modal.confirm({
            title: t(next === 'DISABLED' ? 'confirm.disableTitle' : 'confirm.enableTitle', { name: u.userName }),
            content: next === 'DISABLED' ? t('confirm.disableText') : undefined,
            okText: t('form.confirm'),
            cancelText: t('form.cancel'),
            onOk: async () => {
              try {
                await updateUserStatus(u.id, next);
                message.success(t(next === 'DISABLED' ? 'disabled' : 'enabled', { name: u.userName }));
              } catch (e) {
                // Re-enabling a user beyond read-only waits in the approvals list (issue 47): told, not an error.
                if (!(e instanceof RequestError && e.code === Code.APPROVAL_REQUIRED)) {
                  message.error(e instanceof Error ? e.message : String(e));
                  throw e;
                }
                message.info(e.message);
              }
              await refresh();
            },
          }),
        onReset: (u) =>
          modal.confirm({
            title: t('confirm.resetTitle', { name: u.userName }),
            content: t('confirm.resetText', { email: u.email }),
            okText: t('form.confirm'),
            cancelText: t('form.cancel'),
            onOk: async () => {
              const r = await resetUserPassword(u.id);
              message.success(t(r.sent === 'reset' ? 'resetSent' : 'activationSent', { email: u.email }));
              await refresh();
            },
          }),
        onRemove: (u) =>
          modal.confirm({
            title: t('confirm.removeTitle', { name: u.userName }),
            content: t('confirm.removeText'),
            okText: t('action.remove'),
            okButtonProps: { danger: true },
            cancelText: t('form.cancel'),
            onOk: async () => {
              await removeUser(u.id);
              message.success(t('removed', { name: u.userName }));
              await refresh();
            },
          }),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, canManage],
  );

  const users = (
    <>
      <ReviewDueBanner canManage={canManage} />
      <UserFilterForm
        value={filters}
        onSearch={apply}
        extra={
          canManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              {t('addUser')}
            </Button>
          )
        }
      />
      <Divider style={{ margin: '16px 0' }} />
      <ListTable<TeamUserRow> ns="team" columns={columns} list={list} pagination={pagination} scrollX={1640} />
      <AddUserDialog open={adding} onClose={() => setAdding(false)} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
    </>
  );

  // Users, and the merchant's named roles (issue 28).
  return (
    <PageContainer>
      <Tabs
        items={[
          { key: 'users', label: tRoles('tab.users'), children: users },
          { key: 'roles', label: tRoles('tab.roles'), children: <RolesPanel canManage={canManage} /> },
          { key: 'fourEyes', label: tRoles('tab.fourEyes'), children: <FourEyesPanel canManage={canManage} /> },
          { key: 'access', label: tRoles('tab.access'), children: <AccessPanel canManage={canManage} /> },
          // Issue 51: SCIM provisioning (team:scim:manage) and the sign-in IP allow-list (administrators).
          ...(canScim ? [{ key: 'provisioning', label: tScim('tab.provisioning'), children: <ProvisioningPanel /> }] : []),
          ...(canManage ? [{ key: 'signinIp', label: tScim('tab.signinIp'), children: <SignInIpPanel /> }] : []),
        ]}
      />
    </PageContainer>
  );
}
