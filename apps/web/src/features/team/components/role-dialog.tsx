import { useState } from 'react';
import { Form, Input, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TeamRoleRow } from '@portal/contract';
import { RequestError } from '../../../lib/http';
import { saveRole } from '../api/roles';
import { PermissionPicker } from './permission-picker';
import { useApp } from '../../../app/lazy-app';

interface Values {
  name: string;
  description?: string;
  permissions: string[];
}

/**
 * Add or change a named role (issue 28): name, description, permissions by menu area. A change
 * applies at once to every user holding the role; the server refuses permissions beyond the
 * editor's own.
 */
export function RoleDialog({ role, open, onClose }: { role: TeamRoleRow | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['roles', 'team']);
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const saved = await saveRole({ roleId: role?.id, name: v.name.trim(), description: v.description?.trim() ?? '', permissions: v.permissions });
      message.success(t(role ? 'saved' : 'added', { name: saved.name, count: saved.users }));
      await qc.invalidateQueries({ queryKey: ['team'] });
      onClose();
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : t('saveError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={role ? t('editRole', { name: role.name }) : t('newRole')}
      onCancel={onClose}
      okText={t('team:form.save')}
      cancelText={t('team:form.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      width={720}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        name="role"
        onFinish={submit}
        initialValues={{ name: role?.name ?? '', description: role?.description ?? '', permissions: role?.permissions ?? [] }}
      >
        <Form.Item name="name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('team:form.required') }]}>
          <Input maxLength={40} autoComplete="off" />
        </Form.Item>
        <Form.Item name="description" label={t('form.description')}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
        <Form.Item name="permissions" label={t('team:form.permissions')} rules={[{ required: true, type: 'array', min: 1, message: t('team:form.permissionsRule') }]}>
          <PermissionPicker />
        </Form.Item>
        {role && role.users > 0 && <Typography.Paragraph type="warning">{t('form.appliesToAll', { count: role.users })}</Typography.Paragraph>}
      </Form>
    </Modal>
  );
}
