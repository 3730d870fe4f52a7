import { Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { useMerchant, useUser } from '../../lib/session';

/** /user/info: the signed-in user as the server describes it (GET /user/info, merchant info). */
/**
 * The user's permissions as readable names grouped by area (issue 13, fix 11); a code this build has
 * no words for yet shows as itself.
 */
function PermissionGroups({ codes }: { codes: string[] }) {
  const { t } = useTranslation('permissions');
  const groups = new Map<string, string[]>();
  for (const c of codes) groups.set(c.split(':')[0], [...(groups.get(c.split(':')[0]) ?? []), c]);
  return (
    <dl className="permission-groups">
      {[...groups].map(([g, list]) => (
        <div key={g} className="permission-groups__group">
          <dt>{t(`group.${g}`, { defaultValue: g })}</dt>
          <dd>
            <Space size={[4, 6]} wrap>
              {list.map((p) => (
                <Tag key={p} title={p}>
                  {t(`perm.${p.replace(/:/g, '_')}`, { defaultValue: p })}
                </Tag>
              ))}
            </Space>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function UserInfoPage() {
  const { t } = useTranslation(['user', 'permissions']);
  const user = useUser();
  const merchant = useMerchant();
  return (
    <PageContainer>
      <Descriptions
        className="user-info"
        bordered
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'username', label: t('info.username'), children: user.username },
          { key: 'email', label: t('info.email'), children: user.email || '—' },
          { key: 'merId', label: t('info.merId'), children: <Typography.Text copyable>{user.merId}</Typography.Text> },
          { key: 'merName', label: t('info.merName'), children: user.merName },
          {
            key: 'type',
            label: t('info.userType'),
            children: user.userAdmin ? <Tag color="processing">{t('info.admin')}</Tag> : <Tag>{t('info.subUser')}</Tag>,
          },
          { key: 'currencies', label: t('info.currencies'), children: merchant.currencyList.join(', ') || '—' },
          {
            key: 'merchants',
            label: t('info.merchants'),
            span: 'filled',
            children: (
              <Space orientation="vertical" size={2}>
                {merchant.subMerIdAndNameList.map((m) => (
                  <span key={m.mid}>
                    <Typography.Text code>{m.mid}</Typography.Text> {m.name}
                  </span>
                ))}
              </Space>
            ),
          },
          {
            key: 'permissions',
            label: t('info.permissions'),
            span: 'filled',
            children: <PermissionGroups codes={user.permissions} />,
          },
        ]}
      />
    </PageContainer>
  );
}
