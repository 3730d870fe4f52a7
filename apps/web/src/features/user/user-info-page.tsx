import { Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { useMerchant, useUser } from '../../lib/session';

/** /user/info: the signed-in user as the server describes it (GET /user/info, merchant info). */
export function UserInfoPage() {
  const { t } = useTranslation('user');
  const user = useUser();
  const merchant = useMerchant();
  return (
    <PageContainer>
      <Descriptions
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
            children: user.userAdmin ? <Tag color="blue">{t('info.admin')}</Tag> : <Tag>{t('info.subUser')}</Tag>,
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
            children: (
              <Space size={[4, 6]} wrap>
                {user.permissions.map((p) => (
                  <Tag key={p}>{p}</Tag>
                ))}
              </Space>
            ),
          },
        ]}
      />
    </PageContainer>
  );
}
