import { Form, Radio, Select, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLES, type Role, type TeamUserRow } from '@portal/contract';
import { useMerchant } from '../../../lib/session';
import { useRoleList } from '../api/roles';
import { PermissionPicker } from './permission-picker';

/** The role choice: a preset, CUSTOM, or one of the merchant's named roles (`named:<id>`, issue 28). */
export type RoleChoice = Role | `named:${number}`;

/** The grant part of a user (add and edit alike): the merchants it may see, its role, a custom set. */
export interface GrantValues {
  merIds: string[];
  role: RoleChoice;
  permissions?: string[];
}

/** The grant part of an add/update body: a named role goes as role CUSTOM with its roleId. */
export function grantBody(v: GrantValues): { merIds: string[]; role: Role; roleId?: number; permissions?: string[] } {
  if (v.role.startsWith('named:')) return { merIds: v.merIds, role: 'CUSTOM', roleId: Number(v.role.slice(6)) };
  return { merIds: v.merIds, role: v.role as Role, permissions: v.role === 'CUSTOM' ? v.permissions : undefined };
}

/** The role choice a user has now. */
export const roleChoiceOf = (u: TeamUserRow): RoleChoice => (u.roleId ? `named:${u.roleId}` : (u.role ?? 'CUSTOM'));

/** Merchants (the caller's own), role presets with what each gives, named roles, and the custom permissions. */
export function GrantFields<V extends GrantValues>({ form }: { form: FormInstance<V> }) {
  const { t } = useTranslation(['team', 'roles']);
  const { subMerIdAndNameList } = useMerchant();
  const role = Form.useWatch('role', form);
  const named = useRoleList().data ?? [];
  const option = (value: RoleChoice, name: string, text: string) => (
    <Radio key={value} value={value}>
      <Typography.Text strong>{name}</Typography.Text>
      {text && <Typography.Text type="secondary"> — {text}</Typography.Text>}
    </Radio>
  );
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
          {ROLES.filter((r) => r !== 'CUSTOM').map((r) => option(r, t(`role.${r}.name`), t(`role.${r}.text`)))}
          {named.map((r) => option(`named:${r.id}`, r.name, r.description || t('roles:namedRole')))}
          {option('CUSTOM', t('role.CUSTOM.name'), t('role.CUSTOM.text'))}
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
