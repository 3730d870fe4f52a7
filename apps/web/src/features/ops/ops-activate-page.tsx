import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Form, Input, QRCode, Result, Typography } from 'antd';
import { RequestError } from '../../lib/request';
import { FullPageSpin } from '../../components/full-page-spin';
import { opsApi } from './api/ops-http';
import { OpsLanguageSelect } from './ops-language';
import './ops.css';

type Info = Awaited<ReturnType<typeof opsApi.activation>>;
interface Values {
  newPassword: string;
  confirmPassword: string;
  totpCode: string;
}

/**
 * /ops/activate?token=… (from the CLI's output or the invitation e-mail): the operator sets a
 * password and the authenticator at once — no operator is ever active without a second factor —
 * and is shown its recovery codes once.
 */
export default function OpsActivatePage() {
  const { t } = useTranslation('ops');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [info, setInfo] = useState<Info | null>(null);
  const [expired, setExpired] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    opsApi.activation(token).then(setInfo, (err: unknown) => setExpired(err instanceof RequestError ? err.message : String(err)));
  }, [token]);

  async function submit(v: Values) {
    setBusy(true);
    setError(null);
    try {
      setCodes((await opsApi.activate({ token, ...v })).recoveryCodes);
    } catch (err) {
      setError(err instanceof RequestError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  let body;
  if (expired) body = <Result status="warning" title={expired} extra={<Link to="/ops/login">{t('login.back')}</Link>} />;
  else if (!info) return <FullPageSpin />;
  else if (codes)
    body = (
      <>
        <Typography.Title level={1} className="ops-public__title">
          {t('activate.doneTitle')}
        </Typography.Title>
        <Typography.Paragraph>{t('activate.recoveryHint')}</Typography.Paragraph>
        <pre className="ops-codes" aria-label={t('activate.recoveryCodes')}>
          {codes.join('\n')}
        </pre>
        <Link to="/ops/login">
          <Button type="primary" block>
            {t('activate.toLogin')}
          </Button>
        </Link>
      </>
    );
  else
    body = (
      <>
        <Typography.Title level={1} className="ops-public__title">
          {t('activate.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('activate.subtitle', { username: info.username, email: info.email, role: t(`roles.${info.role}`) })}</Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error} className="ops-public__alert" role="alert" />}
        <Typography.Title level={2} className="ops-public__step">
          {t('activate.stepTotp')}
        </Typography.Title>
        <div className="ops-totp">
          <QRCode value={info.otpauthUri} size={148} bordered={false} aria-label={t('activate.qr')} />
          <div>
            <Typography.Text type="secondary">{t('activate.key')}</Typography.Text>
            <Typography.Paragraph copyable className="ops-totp__key" data-testid="totp-secret">
              {info.totpSecret}
            </Typography.Paragraph>
          </div>
        </div>
        <Form<Values> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="totpCode" label={t('activate.totpCode')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('activate.totpCodeRequired') }]}>
            <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
          </Form.Item>
          <Typography.Title level={2} className="ops-public__step">
            {t('activate.stepPassword')}
          </Typography.Title>
          <Form.Item name="newPassword" label={t('activate.password')} extra={t('activate.passwordRules')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('activate.confirm')}
            dependencies={['newPassword']}
            rules={[
              { required: true, message: t('login.passwordRequired') },
              ({ getFieldValue }) => ({ validator: (_, v) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('activate.mismatch')))) }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('activate.submit')}
          </Button>
        </Form>
      </>
    );
  return (
    <main className="ops-public">
      <div className="ops-public__lang">
        <OpsLanguageSelect />
      </div>
      <Card className="ops-public__card">{body}</Card>
    </main>
  );
}
