import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { permissionGroups } from '@portal/contract';
import { permKey } from './permission-picker';

/** A user's permissions as readable names grouped by menu area (never raw codes; every code has a name in `permissions`). */
export function PermissionsByArea({ codes, compact = false }: { codes: string[]; compact?: boolean }) {
  const { t } = useTranslation(['team', 'menu', 'permissions']);
  const groups = permissionGroups(codes);
  const grouped = new Set(groups.flatMap((g) => g.permissions as string[]));
  const other = codes.filter((c) => !grouped.has(c));
  const area = (menu: string) => (menu === 'other' ? t('team:permGroupOther') : t(`menu:${menu}`));
  // On a phone: the areas with how many permissions each (the full names on a wide screen and in the record).
  if (compact) {
    const parts = groups.map((g) => `${area(g.menu)} (${g.permissions.length})`);
    if (other.length) parts.push(`${t('team:permGroupOther')} (${other.length})`);
    return <Typography.Text>{parts.join(', ')}</Typography.Text>;
  }
  return (
    <div style={{ display: 'grid', gap: 2 }}>
      {groups.map((g) => (
        <Typography.Text key={g.menu}>
          <Typography.Text strong>{g.menu === 'other' ? t('team:permGroupOther') : t(`menu:${g.menu}`)}</Typography.Text>
          {': '}
          {g.permissions.map((p) => t(`permissions:${permKey(p)}`)).join(', ')}
        </Typography.Text>
      ))}
      {other.length > 0 && (
        <Typography.Text>
          <Typography.Text strong>{t('team:permGroupOther')}</Typography.Text>
          {': '}
          {other.map((p) => t(`permissions:${permKey(p)}`)).join(', ')}
        </Typography.Text>
      )}
    </div>
  );
}
