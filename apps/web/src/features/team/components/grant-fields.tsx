import { DatePicker, Form, Radio, Select, Typography, type FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ROLES, type Role, type TeamUserRow } from '@portal/contract';
import { useMerchant } from '../../../lib/session';
import { dayjs, PLATFORM_TZ, WIRE_DATE } from '../../../lib/time';
import { useRoleList } from '../api/roles';
import { PermissionPicker } from './permission-picker';

/** The role choice: a preset, CUSTOM, or one of the merchant's named roles (`named:<id>`, issue 28). */
export type RoleChoice = Role | `named:${number}`;

/** The grant part of a user (add and edit alike): the merchants it may see, its role, a custom set. */
export interface GrantValues {
  merIds: string[];
  role: RoleChoice;
  permissions?: string[];
  /** The last day of access (decision 048), or none. */
  accessEndsOn?: Dayjs | null;
}

/** The grant part of an add/update body: a named role goes as role CUSTOM with its roleId. */
export function grantBody(v: GrantValues): { merIds: string[]; role: Role; roleId?: number; permissions?: string[]; accessEndsOn: string } {
  const accessEndsOn = v.accessEndsOn ? v.accessEndsOn.format(WIRE_DATE) : '';
  if (v.role.startsWith('named:')) return { merIds: v.merIds, role: 'CUSTOM', roleId: Number(v.role.slice(6)), accessEndsOn };
  return { merIds: v.merIds, role: v.role as Role, permissions: v.role === 'CUSTOM' ? v.permissions : undefined, accessEndsOn };
}

/** A stored access end date as the date picker's value. */
export const accessEndOf = (u: TeamUserRow) => (u.accessEndsOn ? dayjs(u.accessEndsOn, WIRE_DATE) : null);

/** Today in the platform zone (the days the server counts in): earlier days cannot be picked. */
const platformToday = () => dayjs().tz(PLATFORM_TZ).format(WIRE_DATE);

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
        <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={subMerIdAndNameList.map((m) => ({ value: m.mid, label: `${m.mid} - ${m.name}` }))} />
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
      <Form.Item name="accessEndsOn" label={t('form.accessEndsOn')} extra={t('form.accessEndsOnHelp')}>
        <DatePicker format={WIRE_DATE} allowClear disabledDate={(d) => d.format(WIRE_DATE) < platformToday()} style={{ width: 200 }} />
      </Form.Item>
    </>
  );
}
