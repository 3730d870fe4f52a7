import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TeamRoleRow } from '@portal/contract';
import { RequestError } from '../../../lib/http';
import { saveRole } from '../api/roles';
import { PermissionPicker } from './permission-picker';
import { useApp } from '../../../app/lazy-app';
import { teamQueries } from '../api/team-queries';

interface Values {
  name: string;
  description?: string;
  permissions: string[];
  caps?: { currency: string; perRefund?: string; perDay?: string }[];
}

const CURRENCIES = ['CNY', 'HKD', 'USD', 'EUR', 'GBP', 'JPY', 'KRW', 'SGD', 'AUD'];
const AMOUNT = /^\d{1,12}(\.\d{1,3})?$/;

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
      const refundCaps = (v.caps ?? []).map((c) => `${c.currency}:${c.perRefund?.trim() ?? ''}:${c.perDay?.trim() ?? ''}`);
      const saved = await saveRole({ roleId: role?.id, name: v.name.trim(), description: v.description?.trim() ?? '', permissions: v.permissions, refundCaps });
      message.success(t(role ? 'saved' : 'added', { name: saved.name, count: saved.users }));
      await qc.invalidateQueries({ predicate: teamQueries });
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
        initialValues={{
          name: role?.name ?? '',
          description: role?.description ?? '',
          permissions: role?.permissions ?? [],
          caps: Object.entries(role?.refundCaps ?? {}).map(([currency, c]) => ({ currency, perRefund: c.perRefund ?? '', perDay: c.perDay ?? '' })),
        }}
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
        <Typography.Text strong>{t('caps.title')}</Typography.Text>
        <Typography.Paragraph type="secondary">{t('caps.help')}</Typography.Paragraph>
        <Form.List name="caps">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" wrap>
                  <Form.Item name={[f.name, 'currency']} rules={[{ required: true, message: t('team:form.required') }]}>
                    <Select aria-label={t('caps.currency')} style={{ width: 100 }} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'perRefund']} rules={[{ pattern: AMOUNT, message: t('caps.amountRule') }]}>
                    <Input aria-label={t('caps.perRefund')} placeholder={t('caps.perRefund')} inputMode="decimal" style={{ width: 150 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'perDay']} rules={[{ pattern: AMOUNT, message: t('caps.amountRule') }]}>
                    <Input aria-label={t('caps.perDay')} placeholder={t('caps.perDay')} inputMode="decimal" style={{ width: 150 }} />
                  </Form.Item>
                  <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label={t('caps.remove')} />
                </Space>
              ))}
              <Form.Item>
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ currency: 'CNY', perRefund: '', perDay: '' })}>
                  {t('caps.add')}
                </Button>
              </Form.Item>
            </>
          )}
        </Form.List>
        {role && role.users > 0 && <Typography.Paragraph type="warning">{t('form.appliesToAll', { count: role.users })}</Typography.Paragraph>}
      </Form>
    </Modal>
  );
}
