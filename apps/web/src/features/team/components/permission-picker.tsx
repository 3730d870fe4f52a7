import { Checkbox, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GRANTABLE_PERMISSIONS, permissionGroups } from '@portal/contract';
import { usePermissions } from '../../../lib/session';

/** A permission code's readable name key: 'txn:detail:refund' → 'perm.txn_detail_refund'. */
export const permKey = (code: string) => `perm.${code.replace(/:/g, '_')}`;

/**
 * The custom role's permissions, as readable names grouped by the menu entry they belong to (never
 * raw codes); only what the signed-in user holds can be ticked (the server checks again).
 */
export function PermissionPicker({ value = [], onChange, id }: { value?: string[]; onChange?: (v: string[]) => void; id?: string }) {
  const { t } = useTranslation(['team', 'menu']);
  const held = usePermissions();
  const groups = permissionGroups(GRANTABLE_PERMISSIONS.filter((p) => held.includes(p)));
  const toggle = (code: string, on: boolean) => onChange?.(on ? [...value, code] : value.filter((c) => c !== code));
  return (
    <div id={id} role="group" aria-label={t('team:form.permissions')} style={{ display: 'grid', gap: 12 }}>
      {groups.map((g) => (
        <div key={g.menu}>
          <Typography.Text strong>{g.menu === 'other' ? t('team:permGroupOther') : t(`menu:${g.menu}`)}</Typography.Text>
          <Space wrap size={[16, 4]} style={{ display: 'flex', marginTop: 4 }}>
            {g.permissions.map((p) => (
              <Checkbox key={p} checked={value.includes(p)} onChange={(e) => toggle(p, e.target.checked)}>
                {t(`team:${permKey(p)}`)}
              </Checkbox>
            ))}
          </Space>
        </div>
      ))}
    </div>
  );
}
