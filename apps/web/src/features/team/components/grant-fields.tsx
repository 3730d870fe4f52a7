import { Form, Radio, Select, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLES, type Role } from '@portal/contract';
import { useMerchant } from '../../../lib/session';
import { PermissionPicker } from './permission-picker';

/** The grant part of a user (add and edit alike): the merchants it may see, its role, a custom set. */
export interface GrantValues {
  merIds: string[];
  role: Role;
  permissions?: string[];
}

/** Merchants (the caller's own), role presets with what each gives, and the custom permissions. */
export function GrantFields<V extends GrantValues>({ form }: { form: FormInstance<V> }) {
  const { t } = useTranslation('team');
  const { subMerIdAndNameList } = useMerchant();
  const role = Form.useWatch('role', form);
  return (
    <>
      <Form.Item name="merIds" label={t('form.merchants')} extra={t('form.merchantsHelp')} rules={[{ required: true, message: t('form.required') }]}>
        <Select
          mode="multiple"
          showSearch={{ optionFilterProp: 'label' }}
          options={subMerIdAndNameList.map((m) => ({ value: m.mid, label: `${m.mid} - ${m.name}` }))}
        />
      </Form.Item>
      <Form.Item name="role" label={t('form.role')} rules={[{ required: true, message: t('form.required') }]}>
        <Radio.Group style={{ display: 'grid', gap: 8 }}>
          {ROLES.map((r) => (
            <Radio key={r} value={r}>
              <Typography.Text strong>{t(`role.${r}.name`)}</Typography.Text>
              <Typography.Text type="secondary"> — {t(`role.${r}.text`)}</Typography.Text>
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      {role === 'CUSTOM' && (
        <Form.Item name="permissions" label={t('form.permissions')} rules={[{ required: true, type: 'array', min: 1, message: t('form.permissionsRule') }]}>
          <PermissionPicker />
        </Form.Item>
      )}
    </>
  );
}
