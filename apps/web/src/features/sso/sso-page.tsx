import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Popconfirm, Radio, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { SSO_ROLES, type SsoConfig, type SsoDomainRow, type SsoMapping, type SsoRole } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { RequestError } from '../../lib/http';
import { formatInstant } from '../../lib/time';
import { useApp } from '../../app/lazy-app';
import { useClaimDomain, useRemoveDomain, useRemoveMapping, useSaveMapping, useSavePolicy, useSaveProvider, useSaveSamlProvider, useSsoConfig, useVerifyDomain, type OidcForm } from './api/sso';
import './sso-page.css';

const errorText = (err: unknown) => (err instanceof RequestError || err instanceof Error ? err.message : String(err));

/** A role choice: a preset, or a named role of the group ("CUSTOM:<id>"); '' = none. */
const roleValue = (role: SsoRole | null, roleId: number | null | undefined) => (role === null ? '' : role === 'CUSTOM' ? `CUSTOM:${roleId}` : role);
const parseRole = (v: string): { role: SsoRole | null; roleId: number | null } =>
  v === '' ? { role: null, roleId: null } : v.startsWith('CUSTOM:') ? { role: 'CUSTOM', roleId: Number(v.slice(7)) } : { role: v as SsoRole, roleId: null };

function useRoleOptions(cfg: SsoConfig | undefined, withNone: boolean) {
  const { t } = useTranslation('sso');
  return [
    ...(withNone ? [{ value: '', label: t('provider.refuse') }] : []),
    ...SSO_ROLES.filter((r) => r !== 'CUSTOM').map((r) => ({ value: r, label: t(`role.${r}`) })),
    ...(cfg?.roles ?? []).map((r) => ({ value: `CUSTOM:${r.id}`, label: t('role.named', { name: r.name }) })),
  ];
}

/** The OIDC provider's form: issuer, client, secret (kept when left empty), groups claim, default role. */
function ProviderCard({ cfg }: { cfg: SsoConfig }) {
  const { t } = useTranslation('sso');
  const { message } = useApp();
  const [form] = Form.useForm<OidcForm & { defaultChoice: string; kind: 'oidc' | 'saml'; metadataXml?: string; metadataUrl?: string }>();
  const save = useSaveProvider();
  const saveSaml = useSaveSamlProvider();
  const p = cfg.provider;
  const kind = Form.useWatch('kind', form) ?? p?.kind ?? 'oidc';
  const options = useRoleOptions(cfg, true);
  useEffect(() => {
    form.setFieldsValue({
      kind: p?.kind ?? 'oidc',
      metadataXml: '',
      metadataUrl: '',
      name: p?.name ?? '',
      issuer: p?.issuer ?? '',
      clientId: p?.clientId ?? '',
      clientSecret: '',
      groupsClaim: p?.groupsClaim ?? 'groups',
      enabled: p?.enabled ?? true,
      defaultChoice: roleValue(p?.defaultRole ?? null, p?.defaultRoleId),
    });
  }, [p, form]);

  async function submit() {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const d = parseRole(v.defaultChoice ?? '');
    try {
      if (v.kind === 'saml') {
        await saveSaml.mutateAsync({
          name: v.name,
          metadataXml: v.metadataXml,
          metadataUrl: v.metadataUrl,
          groupsClaim: v.groupsClaim,
          enabled: v.enabled,
          defaultRole: d.role,
          defaultRoleId: d.roleId,
        });
        message.success(t('provider.saved'));
        return;
      }
      await save.mutateAsync({
        name: v.name,
        issuer: v.issuer,
        clientId: v.clientId,
        clientSecret: v.clientSecret,
        groupsClaim: v.groupsClaim,
        enabled: v.enabled,
        defaultRole: d.role,
        defaultRoleId: d.roleId,
      });
      message.success(t('provider.saved'));
    } catch (err) {
      form.setFields([{ name: v.kind === 'saml' ? 'metadataXml' : 'issuer', errors: [errorText(err)] }]);
    }
  }

  return (
    <Card title={t('provider.title')} size="small" extra={p ? <Tag color={p.enabled ? 'success' : 'default'}>{t(p.enabled ? 'provider.enabled' : 'provider.disabled')}</Tag> : null}>
      <Typography.Paragraph type="secondary">{t('provider.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark onFinish={submit} style={{ maxWidth: 640 }}>
        <Form.Item name="name" label={t('provider.name')} rules={[{ required: true, message: t('provider.nameRequired') }]}>
          <Input maxLength={80} placeholder="Entra ID" />
        </Form.Item>
        <Form.Item name="kind" label={t('provider.kind')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'oidc', label: 'OpenID Connect' },
              { value: 'saml', label: 'SAML 2.0' },
            ]}
          />
        </Form.Item>
        {kind === 'saml' ? (
          <>
            <Form.Item name="metadataUrl" label={t('provider.metadataUrl')} rules={[{ type: 'url', message: t('provider.issuerRequired') }]}>
              <Input maxLength={500} inputMode="url" placeholder="https://…/federationmetadata.xml" />
            </Form.Item>
            <Form.Item name="metadataXml" label={t('provider.metadataXml')} extra={t('provider.metadataHint')}>
              <Input.TextArea rows={4} maxLength={200000} spellCheck={false} />
            </Form.Item>
            {p?.kind === 'saml' && (
              <Form.Item label={t('provider.spMetadata')} extra={t('provider.spMetadataHint')}>
                <Space direction="vertical" size={0}>
                  <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                    {p.spEntityId}
                  </Typography.Text>
                  <Typography.Link href={p.spMetadataUrl} download>
                    {t('provider.spMetadataDownload')}
                  </Typography.Link>
                </Space>
              </Form.Item>
            )}
          </>
        ) : (
          <>
            <Form.Item name="issuer" label={t('provider.issuer')} extra={t('provider.issuerHint')} rules={[{ required: true, type: 'url', message: t('provider.issuerRequired') }]}>
              <Input maxLength={500} placeholder="https://login.microsoftonline.com/<tenant>/v2.0" inputMode="url" />
            </Form.Item>
            <Form.Item name="clientId" label={t('provider.clientId')} rules={[{ required: true, message: t('provider.clientIdRequired') }]}>
              <Input maxLength={200} autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="clientSecret"
              label={t('provider.clientSecret')}
              extra={p?.hasSecret ? t('provider.secretKept') : undefined}
              rules={p?.hasSecret ? [] : [{ required: true, message: t('provider.secretRequired') }]}
            >
              <Input.Password maxLength={500} autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item name="groupsClaim" label={t('provider.groupsClaim')} extra={t('provider.groupsClaimHint')}>
          <Input maxLength={80} />
        </Form.Item>
        <Form.Item name="defaultChoice" label={t('provider.defaultRole')} extra={t('provider.defaultRoleHint')}>
          <Select options={options} />
        </Form.Item>
        <Form.Item name="enabled" label={t('provider.enabledLabel')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label={t('provider.redirectUri')} extra={t('provider.redirectUriHint')}>
          <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
            {p?.kind === kind ? p.redirectUri : `${window.location.origin}/api/sso/${kind === 'saml' ? 'saml/acs' : 'oidc/callback'}`}
          </Typography.Text>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending || saveSaml.isPending}>
          {t('provider.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** Provider groups → roles. */
function MappingCard({ cfg }: { cfg: SsoConfig }) {
  const { t } = useTranslation('sso');
  const [form] = Form.useForm<{ claimValue: string; choice: string; priority: number }>();
  const save = useSaveMapping();
  const remove = useRemoveMapping();
  const options = useRoleOptions(cfg, false);
  const roleLabel = (m: SsoMapping) => (m.role === 'CUSTOM' ? t('role.named', { name: m.roleName ?? '' }) : t(`role.${m.role}`));
  const columns: ColumnsType<SsoMapping> = [
    { key: 'claim', title: t('mapping.group'), render: (_, m) => <Typography.Text code>{m.claimValue}</Typography.Text> },
    { key: 'role', title: t('mapping.role'), render: (_, m) => roleLabel(m) },
    { key: 'priority', title: t('mapping.priority'), width: 90, render: (_, m) => m.priority },
    {
      key: 'actions',
      title: t('actions'),
      width: 90,
      render: (_, m) => (
        <Popconfirm title={t('mapping.removeConfirm')} onConfirm={() => remove.mutateAsync(m.id).catch(() => undefined)}>
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('mapping.remove', { group: m.claimValue })} />
        </Popconfirm>
      ),
    },
  ];
  async function add() {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = parseRole(v.choice);
    try {
      await save.mutateAsync({ claimValue: v.claimValue, role: r.role!, ...(r.roleId ? { roleId: r.roleId } : {}), priority: v.priority ?? 100 });
      form.resetFields();
    } catch (err) {
      form.setFields([{ name: 'claimValue', errors: [errorText(err)] }]);
    }
  }
  return (
    <Card title={t('mapping.title')} size="small">
      <Typography.Paragraph type="secondary">{t('mapping.hint')}</Typography.Paragraph>
      {!cfg.provider && <Alert type="info" showIcon message={t('mapping.providerFirst')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="inline" onFinish={add} initialValues={{ priority: 100, choice: 'READONLY' }} style={{ rowGap: 8, marginBottom: 12 }}>
        <Form.Item name="claimValue" label={t('mapping.group')} rules={[{ required: true, message: t('mapping.groupRequired') }]}>
          <Input maxLength={200} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="choice" label={t('mapping.role')}>
          <Select options={options} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="priority" label={t('mapping.priority')}>
          <InputNumber min={0} max={1000} style={{ width: 90 }} />
        </Form.Item>
        <Button htmlType="submit" icon={<PlusOutlined />} loading={save.isPending} disabled={!cfg.provider}>
          {t('mapping.add')}
        </Button>
      </Form>
      <Table rowKey="id" size="small" columns={columns} dataSource={cfg.mappings} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: t('mapping.empty') }} />
    </Card>
  );
}

/** E-mail domains, proved by a DNS TXT record. */
function DomainCard({ cfg }: { cfg: SsoConfig }) {
  const { t } = useTranslation('sso');
  const { message } = useApp();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const claim = useClaimDomain();
  const verify = useVerifyDomain();
  const remove = useRemoveDomain();
  const columns: ColumnsType<SsoDomainRow> = [
    { key: 'domain', title: t('domain.domain'), render: (_, d) => <Typography.Text strong>{d.domain}</Typography.Text> },
    {
      key: 'record',
      title: t('domain.record'),
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('domain.recordName')}
          </Typography.Text>
          <Typography.Text code copyable>
            {d.recordName}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('domain.recordValue')}
          </Typography.Text>
          <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
            {d.recordValue}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'status',
      title: t('domain.status'),
      width: 160,
      render: (_, d) => (d.verified ? <Tag color="success">{t('domain.verified', { time: formatInstant(d.verifiedAt!) })}</Tag> : <Tag color="warning">{t('domain.pending')}</Tag>),
    },
    {
      key: 'actions',
      title: t('actions'),
      width: 150,
      render: (_, d) => (
        <Space>
          {!d.verified && (
            <Button
              size="small"
              icon={<SafetyCertificateOutlined />}
              loading={verify.isPending && verify.variables === d.id}
              onClick={() =>
                verify.mutateAsync(d.id).then(
                  () => message.success(t('domain.verifiedNow', { domain: d.domain })),
                  () => undefined,
                )
              }
            >
              {t('domain.verify')}
            </Button>
          )}
          <Popconfirm title={t('domain.removeConfirm')} onConfirm={() => remove.mutateAsync(d.id).catch(() => undefined)}>
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('domain.remove', { domain: d.domain })} />
          </Popconfirm>
        </Space>
      ),
    },
  ];
  async function add() {
    setError(null);
    if (!domain.trim()) return setError(t('domain.required'));
    try {
      await claim.mutateAsync(domain.trim());
      setDomain('');
    } catch (err) {
      setError(errorText(err));
    }
  }
  return (
    <Card title={t('domain.title')} size="small">
      <Typography.Paragraph type="secondary">{t('domain.hint')}</Typography.Paragraph>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Input
          aria-label={t('domain.domain')}
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
          onPressEnter={add}
          placeholder="example.com"
          maxLength={253}
          style={{ maxWidth: 280 }}
          status={error ? 'error' : undefined}
        />
        <Button icon={<PlusOutlined />} onClick={add} loading={claim.isPending}>
          {t('domain.add')}
        </Button>
      </Flex>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
      <Table rowKey="id" size="small" columns={columns} dataSource={cfg.domains} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: t('domain.empty') }} />
    </Card>
  );
}

/** "SSO required" and the break-glass administrators. */
function PolicyCard({ cfg }: { cfg: SsoConfig }) {
  const { t } = useTranslation('sso');
  const { message } = useApp();
  const [required, setRequired] = useState(cfg.ssoRequired);
  const [breakGlass, setBreakGlass] = useState<number[]>(cfg.breakGlass);
  const save = useSavePolicy();
  return (
    <Card title={t('policy.title')} size="small">
      <Typography.Paragraph type="secondary">{t('policy.hint')}</Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: '100%', maxWidth: 640 }}>
        <Flex gap={12} align="center">
          <Switch id="sso-required" checked={required} onChange={setRequired} />
          <label htmlFor="sso-required">{t('policy.required')}</label>
        </Flex>
        <div>
          <label htmlFor="sso-break-glass" style={{ display: 'block', marginBottom: 4 }}>
            {t('policy.breakGlass')}
          </label>
          <Select
            id="sso-break-glass"
            mode="multiple"
            value={breakGlass}
            onChange={setBreakGlass}
            style={{ width: '100%' }}
            options={cfg.admins.map((a) => ({ value: a.id, label: a.username }))}
            placeholder={t('policy.breakGlassPlaceholder')}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('policy.breakGlassHint')}
          </Typography.Text>
        </div>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() =>
            save.mutateAsync({ ssoRequired: required, breakGlass }).then(
              () => message.success(t('policy.saved')),
              () => undefined,
            )
          }
        >
          {t('policy.save')}
        </Button>
      </Space>
    </Card>
  );
}

/**
 * Team → Sign-in (issue 51, docs/sso.md): the merchant group's identity provider (OIDC), the
 * mapping of its groups to roles, verified e-mail domains and "SSO required" with break-glass
 * administrators. Holders of team:sso:manage.
 */
export function SsoPage() {
  const { t } = useTranslation('sso');
  const { data } = useSsoConfig();
  return (
    <PageContainer card={false}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }} className="sso-page">
        <Typography.Paragraph style={{ margin: 0 }}>{t('intro')}</Typography.Paragraph>
        {data && (
          <>
            <ProviderCard cfg={data} />
            <MappingCard cfg={data} />
            <DomainCard cfg={data} />
            {/* Drawn anew when the saved policy changes (its fields start from it). */}
            <PolicyCard key={`${data.ssoRequired}:${data.breakGlass.join(',')}`} cfg={data} />
          </>
        )}
      </Space>
    </PageContainer>
  );
}
