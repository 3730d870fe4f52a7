import { useState } from 'react';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Code, EMAIL_RE, PHONE_RE, TeamApi, USERNAME_RE } from '@portal/contract';
import { useUser } from '../../../lib/session';
import { RequestError } from '../../../lib/http';
import { addUser } from '../api/add-user';
import { checkUserExist } from '../api/check-user-exist';
import { generateUserName } from '../api/generate-user-name';
import { grantBody, GrantFields, type GrantValues } from './grant-fields';
import { useApp } from '../../../app/lazy-app';
import { teamQueries } from '../api/team-queries';
import { apiKey } from '../../../lib/api-query';

interface Values extends GrantValues {
  userName: string;
  email: string;
  phone?: string;
}

/**
 * Add a user (spec §7 /user/add): a proposed free user name, uniqueness answered as the form is
 * typed (/user/checkUserExist), the merchants the user may see (the caller's own), a role.
 */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('team');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();
  const me = useUser();

  const unique = (field: 'userName' | 'email' | 'phone') => ({
    validator: async (_: unknown, v?: string) => {
      if (!v?.trim()) return;
      const r = await checkUserExist({ [field]: v.trim() }).catch(() => null);
      if (r?.[field]) throw new Error(t('form.exists'));
    },
  });

  const suggest = async () => {
    const base = form.getFieldValue('email')?.split('@')[0] || form.getFieldValue('userName');
    const name = await generateUserName(base).catch(() => null);
    if (name) {
      form.setFieldValue('userName', name);
      void form.validateFields(['userName']);
    }
  };

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const u = await addUser({ userName: v.userName, email: v.email, phone: v.phone?.trim() || undefined, ...grantBody(v) });
      message.success(t('added', { name: u.userName, email: u.email }));
      await qc.invalidateQueries({ predicate: teamQueries });
      form.resetFields();
      onClose();
    } catch (e) {
      // Issue 47: more than read-only waits for a second administrator — nothing is created yet.
      if (e instanceof RequestError && e.code === Code.APPROVAL_REQUIRED) {
        message.info(e.message);
        await qc.invalidateQueries({ queryKey: apiKey(TeamApi.approvals) });
        form.resetFields();
        onClose();
        return;
      }
      message.error(e instanceof RequestError ? e.message : t('createUserError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('addUser')} onCancel={onClose} okText={t('form.submit')} cancelText={t('form.cancel')} confirmLoading={saving} onOk={() => form.submit()} width={720} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" name="addUser" onFinish={submit} initialValues={{ merIds: [me.merId], role: 'FINANCE', permissions: [] }}>
        <Form.Item label={t('form.userName')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item
              name="userName"
              noStyle
              validateDebounce={400}
              rules={[{ required: true, message: t('form.required') }, { pattern: USERNAME_RE, message: t('form.userNameRule') }, unique('userName')]}
            >
              <Input aria-label={t('form.userName')} maxLength={64} autoComplete="off" />
            </Form.Item>
            <Button onClick={() => void suggest()}>{t('form.suggest')}</Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="email"
          label={t('form.email')}
          validateDebounce={400}
          rules={[{ required: true, message: t('form.required') }, { pattern: EMAIL_RE, message: t('form.emailRule') }, unique('email')]}
        >
          <Input maxLength={254} autoComplete="off" />
        </Form.Item>
        <Form.Item name="phone" label={t('form.phone')} validateDebounce={400} rules={[{ pattern: PHONE_RE, message: t('form.phoneRule') }, unique('phone')]}>
          <Input maxLength={20} autoComplete="off" />
        </Form.Item>
        <GrantFields form={form} />
        <Typography.Paragraph type="secondary">{t('form.activationNote')}</Typography.Paragraph>
      </Form>
    </Modal>
  );
}
