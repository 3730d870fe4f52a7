import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Modal, QRCode, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { LockOutlined, MobileOutlined, SafetyCertificateOutlined, WechatOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Code, type LoginHistoryItem, type SessionItem } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { PageContainer } from '../../components/page-container';
import { currentLanguage } from '../../lib/i18n';
import {
  accountQueries,
  bindPhone,
  revokeOtherSessions,
  revokeSession,
  sendPhoneCode,
  setRequireTotp,
  totpDisable,
  totpEnable,
  totpSetup,
  useLoginHistory,
  useSecurity,
  useSessions,
  wechatBindUrl,
  wechatUnbind,
} from './api/account';
import { passwordIcon } from '../../components/password-icon';
import { useApp } from '../../app/lazy-app';
import { PasskeyCard } from './passkey-card';

/** Calling codes offered by the country picker (E.164); region names come from the browser in the user's language. */
const COUNTRIES: [string, string][] = [
  ['CN', '86'],
  ['HK', '852'],
  ['MO', '853'],
  ['TW', '886'],
  ['JP', '81'],
  ['KR', '82'],
  ['SG', '65'],
  ['MY', '60'],
  ['TH', '66'],
  ['PH', '63'],
  ['ID', '62'],
  ['VN', '84'],
  ['IN', '91'],
  ['AU', '61'],
  ['NZ', '64'],
  ['US', '1'],
  ['CA', '1'],
  ['GB', '44'],
  ['DE', '49'],
  ['FR', '33'],
];

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ predicate: accountQueries });
}

function PhoneCard({ phone }: { phone: string | null }) {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const invalidate = useInvalidate();
  const [form] = Form.useForm<{ country: string; number: string; code: string }>();
  const [left, setLeft] = useState(0);
  const regions = useMemo(() => new Intl.DisplayNames([currentLanguage()], { type: 'region' }), []);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const e164 = () => {
    const { country, number } = form.getFieldsValue();
    const cc = COUNTRIES.find(([c]) => c === country)?.[1] ?? '';
    return `+${cc}${String(number ?? '')
      .replace(/\D/g, '')
      .replace(/^0+/, '')}`;
  };
  async function send() {
    try {
      await form.validateFields(['country', 'number']);
    } catch {
      return;
    }
    try {
      const r = await sendPhoneCode(e164());
      message.success(t('security.codeSent'));
      setLeft(r.resendAfter || 60);
    } catch {
      /* shown by the request client */
    }
  }
  async function bind(v: { code: string }) {
    try {
      await bindPhone(e164(), v.code.trim());
      message.success(t('security.phoneBound'));
      form.resetFields(['number', 'code']);
      void invalidate();
    } catch {
      /* shown by the request client */
    }
  }
  return (
    <Card
      title={
        <Space>
          <MobileOutlined />
          {t('security.phone')}
        </Space>
      }
      extra={phone ? <Tag color="success">{t('security.bound')}</Tag> : null}
    >
      <Typography.Paragraph data-testid="phone-bound">{phone ?? t('security.phoneNone')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={bind} initialValues={{ country: 'CN', number: '', code: '' }}>
        <Flex gap={8} wrap>
          <Form.Item name="country" label={t('security.country')} style={{ minWidth: 180, flex: '0 1 220px' }}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={COUNTRIES.map(([c, cc]) => ({ value: c, label: `${regions.of(c) ?? c} +${cc}` }))} />
          </Form.Item>
          <Form.Item name="number" label={t('security.phoneNumber')} style={{ flex: '1 1 200px' }} rules={[{ required: true, pattern: /^[\d\s-]{5,15}$/, message: t('required') }]}>
            <Input inputMode="tel" autoComplete="tel-national" maxLength={18} />
          </Form.Item>
        </Flex>
        <Flex gap={8} wrap align="flex-end">
          <Form.Item name="code" label={t('security.smsCode')} style={{ flex: '1 1 160px' }} rules={[{ required: true, pattern: /^\d{6}$/, message: t('required') }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          <Form.Item>
            <Space wrap>
              <Button onClick={send} disabled={left > 0}>
                {left > 0 ? t('security.resendIn', { s: left }) : t('security.sendCode')}
              </Button>
              <Button type="primary" htmlType="submit">
                {t('security.bind')}
              </Button>
            </Space>
          </Form.Item>
        </Flex>
      </Form>
    </Card>
  );
}

function WechatCard({ bound, nickname }: { bound: boolean; nickname: string | null }) {
  const { t } = useTranslation('account');
  const invalidate = useInvalidate();
  return (
    <Card
      title={
        <Space>
          <WechatOutlined />
          {t('security.wechat')}
        </Space>
      }
      extra={bound ? <Tag color="success">{t('security.bound')}</Tag> : null}
    >
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Typography.Text data-testid="wechat-bound">{bound ? (nickname ?? '—') : t('security.wechatNone')}</Typography.Text>
        {bound ? (
          <Button onClick={() => wechatUnbind().then(invalidate, () => undefined)}>{t('security.wechatUnbind')}</Button>
        ) : (
          <Button
            type="primary"
            icon={<WechatOutlined />}
            onClick={() =>
              wechatBindUrl().then(
                (r) => window.location.assign(r.url),
                () => undefined,
              )
            }
          >
            {t('security.wechatBind')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}

function TotpCard({ enabled, left, required, merchantRequire }: { enabled: boolean; left: number; required: boolean; merchantRequire: boolean | null }) {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const invalidate = useInvalidate();
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [disableForm] = Form.useForm<{ password: string; code: string }>();

  async function enable(v: { code: string }) {
    try {
      const r = await totpEnable(v.code.trim());
      setSetup(null);
      setCodes(r.recoveryCodes);
    } catch {
      /* shown by the request client */
    }
  }
  async function disable() {
    const v = await disableForm.validateFields();
    try {
      await totpDisable(v.password, v.code.trim());
      setDisabling(false);
      disableForm.resetFields();
      void invalidate();
    } catch {
      /* shown by the request client */
    }
  }
  return (
    <Card
      title={
        <Space>
          <SafetyCertificateOutlined />
          {t('security.totp')}
        </Space>
      }
      extra={enabled ? <Tag color="success">{t('security.totpBadgeOn')}</Tag> : <Tag>{t('security.totpBadgeOff')}</Tag>}
    >
      {required && !enabled && <Alert type="warning" showIcon title={t('security.totpRequired')} style={{ marginBottom: 12 }} />}
      <Typography.Paragraph>{enabled ? t('security.totpOn', { n: left }) : t('security.totpOff')}</Typography.Paragraph>
      {!enabled && !setup && (
        <Button type="primary" onClick={() => totpSetup().then(setSetup, () => undefined)}>
          {t('security.totpEnrol')}
        </Button>
      )}
      {setup && (
        <Flex gap={24} wrap align="flex-start">
          <QRCode value={setup.otpauthUrl} size={180} bordered={false} aria-label="QR" />
          <div style={{ flex: '1 1 240px' }}>
            <Typography.Paragraph>{t('security.totpScan')}</Typography.Paragraph>
            <Typography.Paragraph>
              {t('security.totpKey')}:{' '}
              <Typography.Text code copyable data-testid="totp-secret">
                {setup.secret}
              </Typography.Text>
            </Typography.Paragraph>
            <Form layout="vertical" requiredMark={false} onFinish={enable}>
              <Form.Item name="code" label={t('security.totpCode')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('required') }]}>
                <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 200 }} />
              </Form.Item>
              <Button type="primary" htmlType="submit">
                {t('security.totpConfirm')}
              </Button>
            </Form>
          </div>
        </Flex>
      )}
      {enabled && (
        <Button danger onClick={() => setDisabling(true)}>
          {t('security.totpDisable')}
        </Button>
      )}
      {merchantRequire !== null && (
        <Flex gap={12} align="center" style={{ marginTop: 16 }} wrap>
          <Switch
            checked={merchantRequire}
            aria-label={t('security.requireTitle')}
            onChange={(v) =>
              setRequireTotp(v).then(
                () => {
                  message.success(t('security.saved'));
                  void invalidate();
                },
                // Switching it off waits for a second administrator (issue 47): told, not an error.
                (e) => (e instanceof RequestError && e.code === Code.APPROVAL_REQUIRED ? message.info(e.message) : message.error(e instanceof Error ? e.message : String(e))),
              )
            }
          />
          <div>
            <div>{t('security.requireTitle')}</div>
            <Typography.Text type="secondary">{t('security.requireHelp')}</Typography.Text>
          </div>
        </Flex>
      )}
      <Modal
        open={!!codes}
        title={t('security.recoveryTitle')}
        closable={false}
        maskClosable={false}
        footer={
          <Button
            type="primary"
            onClick={() => {
              setCodes(null);
              if (required) window.location.assign('/');
              else void invalidate();
            }}
          >
            {t('security.recoveryDone')}
          </Button>
        }
      >
        <Typography.Paragraph>{t('security.recoveryText')}</Typography.Paragraph>
        <div className="security-codes" data-testid="recovery-codes">
          {codes?.map((c) => (
            <span key={c}>{c}</span>
          ))}
        </div>
      </Modal>
      <Modal open={disabling} title={t('security.totpDisableTitle')} onCancel={() => setDisabling(false)} onOk={disable} okText={t('security.totpDisable')} okButtonProps={{ danger: true }}>
        <Form form={disableForm} layout="vertical" requiredMark={false}>
          <Form.Item name="password" label={t('security.password')} rules={[{ required: true, message: t('required') }]}>
            <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="code" label={t('security.totpCode')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('required') }]}>
            <Input inputMode="numeric" maxLength={6} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

function SessionsCard() {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const { data, isLoading } = useSessions();
  const invalidate = useInvalidate();
  const done = () => {
    message.success(t('security.signedOut'));
    void invalidate();
  };
  return (
    <Card
      title={t('security.sessions')}
      extra={
        <Button onClick={() => revokeOtherSessions().then(done, () => undefined)} disabled={(data?.length ?? 0) < 2}>
          {t('security.signOutOthers')}
        </Button>
      }
    >
      <Table<SessionItem>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={data ?? []}
        pagination={false}
        scroll={{ x: 640 }}
        columns={[
          {
            title: t('security.device'),
            dataIndex: 'device',
            render: (v: string, r) => (
              <Space>
                {v || '—'}
                {r.current && <Tag color="processing">{t('security.current')}</Tag>}
              </Space>
            ),
          },
          { title: t('security.address'), dataIndex: 'ip' },
          { title: t('security.started'), dataIndex: 'startedAt' },
          { title: t('security.lastSeen'), dataIndex: 'lastSeenAt' },
          {
            title: '',
            key: 'op',
            render: (_, r) =>
              r.current ? null : (
                <Button size="small" onClick={() => revokeSession(r.id).then(done, () => undefined)}>
                  {t('security.signOut')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}

function HistoryCard() {
  const { t } = useTranslation('account');
  const { data, isLoading } = useLoginHistory();
  return (
    <Card title={t('security.history')}>
      <Table<LoginHistoryItem>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={data ?? []}
        pagination={false}
        scroll={{ x: 640 }}
        columns={[
          { title: t('security.time'), dataIndex: 'at' },
          { title: t('security.event'), dataIndex: 'event', render: (v: string) => <Tag color={v === 'login' ? 'success' : v === 'logout' ? 'default' : 'error'}>{t(`security.events.${v}`)}</Tag> },
          { title: t('security.method'), dataIndex: 'method', render: (v: string) => (v ? t(`security.methods.${v}`, { defaultValue: v }) : '') },
          { title: t('security.address'), dataIndex: 'ip' },
          { title: t('security.device'), dataIndex: 'device' },
        ]}
      />
    </Card>
  );
}

/** /user/security: phone and WeChat binding, the authenticator, active sessions and sign-in history. */
export function SecurityPage() {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const { data } = useSecurity();
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    const w = params.get('wechat');
    if (!w) return;
    if (w === 'bound') message.success(t('security.wechatBound'));
    else message.error(t('security.wechatBindFailed'));
    setParams({}, { replace: true });
  }, [params, setParams, message, t]);
  if (!data)
    return (
      <PageContainer>
        <Card loading />
      </PageContainer>
    );
  return (
    <PageContainer>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <TotpCard enabled={data.totp.enabled} left={data.totp.recoveryCodesLeft} required={data.totp.required} merchantRequire={data.merchantRequireTotp} />
        <PasskeyCard required={data.totp.required} totpOn={data.totp.enabled} />
        <PhoneCard phone={data.phone} />
        {data.wechat.available && <WechatCard bound={data.wechat.bound} nickname={data.wechat.nickname} />}
        <SessionsCard />
        <HistoryCard />
      </Space>
    </PageContainer>
  );
}
