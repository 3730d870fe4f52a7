import { useState } from 'react';
import { Form, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Code, TeamApi, type TeamUserRow } from '@portal/contract';
import { RequestError } from '../../../lib/http';
import { updateUser } from '../api/update-user';
import { accessEndOf, grantBody, GrantFields, roleChoiceOf, type GrantValues } from './grant-fields';
import { useApp } from '../../../app/lazy-app';
import { teamQueries } from '../api/team-queries';
import { apiKey } from '../../../lib/api-query';

/**
 * Edit a user (issue 28): its merchants, role and custom permissions, with the rules of adding —
 * the server refuses grants beyond the editor's own. What is taken away stops working on the
 * user's open sessions at once.
 */
export function EditUserDialog({ user, onClose }: { user: TeamUserRow | null; onClose: () => void }) {
  const { t } = useTranslation('team');
  const { message } = useApp();
  const [form] = Form.useForm<GrantValues>();
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();

  const submit = async (v: GrantValues) => {
    if (!user) return;
    setSaving(true);
    try {
      await updateUser({ userId: user.id, ...grantBody(v) });
      message.success(t('edited', { name: user.userName }));
      await qc.invalidateQueries({ predicate: teamQueries });
      onClose();
    } catch (e) {
      // A raise (or looser refund caps) waits in the approvals list: told, not an error.
      if (e instanceof RequestError && e.code === Code.APPROVAL_REQUIRED) {
        message.info(e.message);
        await qc.invalidateQueries({ queryKey: apiKey(TeamApi.approvals) });
        onClose();
        return;
      }
      message.error(e instanceof RequestError ? e.message : t('editUserError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!user}
      title={user ? t('editUser', { name: user.userName }) : ''}
      onCancel={onClose}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      width={720}
      destroyOnHidden
    >
      {user && (
        <Form<GrantValues>
          form={form}
          layout="vertical"
          name="editUser"
          onFinish={submit}
          initialValues={{ merIds: user.merIds, role: roleChoiceOf(user), permissions: user.permissions, accessEndsOn: accessEndOf(user) }}
        >
          <GrantFields form={form} />
          <Typography.Paragraph type="secondary">{t('form.editNote')}</Typography.Paragraph>
        </Form>
      )}
    </Modal>
  );
}
