import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { RequestError } from '../../lib/request';
import { opsApi, opsTokens } from './api/ops-http';
import { OpsLanguageSelect } from './ops-language';
import './ops.css';

interface Values {
  username: string;
  password: string;
  verifyCode: string;
}

/** /ops/login: an operator signs in with user name, password and the authenticator's code (mandatory). */
export default function OpsLoginPage() {
  const { t } = useTranslation('ops');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();

  async function submit(v: Values) {
    setBusy(true);
    setError(null);
    try {
      const out = await opsApi.login(v);
      if ('token' in out) {
        opsTokens.setTokens(out);
        const to = params.get('redirect');
        navigate(to && to.startsWith('/ops/') && !to.startsWith('//') ? to : '/ops/merchants', { replace: true });
      }
    } catch (err) {
      setError(err instanceof RequestError ? err.message : String(err));
      form.setFieldValue('verifyCode', '');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="ops-public">
      <div className="ops-public__lang">
        <OpsLanguageSelect />
      </div>
      <Card className="ops-public__card">
        <Typography.Title level={1} className="ops-public__title">
          {t('login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error} className="ops-public__alert" role="alert" />}
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="verifyCode" label={t('login.verifyCode')} extra={t('login.verifyCodeHint')} rules={[{ required: true, whitespace: true, message: t('login.verifyCodeRequired') }]}>
            <Input autoComplete="one-time-code" inputMode="numeric" maxLength={16} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
