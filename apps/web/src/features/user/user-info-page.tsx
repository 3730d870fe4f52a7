import { useMemo, useState } from 'react';
import { Descriptions, Grid, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { feedback } from '../../lib/feedback';
import { http } from '../../lib/http';
import { setSession, useMerchant, useUser } from '../../lib/session';
import { allTimeZones, browserZone, setChosenZone, zoneOffsetLabel } from '../../lib/time';
import { AccountApi } from '@portal/contract';

/**
 * The zone every time in the portal is shown in (and the transaction list's default zone): the
 * browser's, or one the user picks; kept on the server, so it follows the user to other devices.
 */
function TimeZoneSetting() {
  const { t } = useTranslation('user');
  const user = useUser();
  const [saving, setSaving] = useState(false);
  const browser = browserZone();
  const options = useMemo(
    () => [
      { value: '', label: t('info.timeZoneBrowser', { zone: `${browser} (${zoneOffsetLabel(browser)})` }) },
      ...allTimeZones(user.timeZone ?? undefined).map((z) => ({ value: z, label: `${z} (${zoneOffsetLabel(z)})` })),
    ],
    [t, browser, user.timeZone],
  );
  const save = async (zone: string) => {
    setSaving(true);
    try {
      const r = await http.call(AccountApi.updateTimeZone, { timeZone: zone });
      setChosenZone(r.timeZone);
      setSession({ user: { ...user, timeZone: r.timeZone } });
      feedback().message.success(t('info.timeZoneSaved', { zone: r.timeZone ?? browser }));
    } catch {
      // the request client said why
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Select
        showSearch={{ optionFilterProp: 'label' }}
        aria-label={t('info.timeZone')}
        data-testid="time-zone"
        style={{ width: 440, maxWidth: '100%' }}
        value={user.timeZone ?? ''}
        loading={saving}
        disabled={saving}
        options={options}
        onChange={(v: string) => void save(v)}
      />
      <Typography.Text type="secondary">{t('info.timeZoneHint')}</Typography.Text>
    </Space>
  );
}

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
  // Narrow screens: each label above its value, so nothing runs past the card.
  const wide = Grid.useBreakpoint().md !== false;
  return (
    <PageContainer>
      <Descriptions
        className={wide ? 'user-info' : 'user-info user-info--stacked'}
        bordered
        layout={wide ? 'horizontal' : 'vertical'}
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
          { key: 'timeZone', label: t('info.timeZone'), span: 'filled', children: <TimeZoneSetting /> },
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
