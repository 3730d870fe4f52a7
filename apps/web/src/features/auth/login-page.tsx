import { useEffect, useState } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cookieTokens } from '../../lib/tokens';
import { LanguageSelect } from '../../components/language-select';
import { safeRedirect } from '../../lib/redirect';
import { takeSessionError } from '../../lib/session-error';
import { ERROR_SECONDS } from '../../lib/http';
import { login } from './api/login';
import { SendCodeButton } from './send-code-button';
import { LoginHero } from './login-hero';

interface LoginForm {
  username: string;
  password: string;
  verifyCode: string;
}

/**
 * /login: user name, password and the e-mailed code (spec §2, §8). Server errors — each sign-in
 * failure has its own message in the user's language — are shown by the request client.
 */
export default function LoginPage() {
  const { t } = useTranslation(['login', 'layout']);
  const [form] = Form.useForm<LoginForm>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);

  const { message } = App.useApp();

  // The reason a session was refused (handed over by the guard), shown once the page is up.
  useEffect(() => {
    const reason = takeSessionError();
    if (reason) message.error({ content: reason, duration: ERROR_SECONDS, key: 'session-error' });
  }, [message]);

  useEffect(() => {
    document.title = `${t('title')} · ${t('layout:product')}`;
  }, [t]);

  async function submit(values: LoginForm) {
    setSubmitting(true);
    try {
      const pair = await login({ username: values.username.trim(), password: values.password, verifyCode: values.verifyCode.trim() });
      cookieTokens.setTokens(pair);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      form.setFieldValue('verifyCode', '');
    } finally {
      setSubmitting(false);
    }
  }

  const usernameForCode = async () => {
    try {
      const { username } = await form.validateFields(['username']);
      return username.trim();
    } catch {
      return null;
    }
  };

  return (
    <div className="login-screen">
      <LoginHero />
      <div className="login-panel">
        <div className="login-panel__top">
          <LanguageSelect variant="outlined" />
        </div>
        <main className="login-card">
          <h1 className="login-card__title">{t('title')}</h1>
          <p className="login-card__subtitle">{t('subtitle')}</p>
          <Form<LoginForm> form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit} initialValues={{ username: '', password: '', verifyCode: '' }}>
            <Form.Item name="username" label={t('username')} rules={[{ required: true, whitespace: true, message: t('usernameRequired') }]}>
              <Input prefix={<UserOutlined />} autoComplete="username" placeholder={t('usernamePlaceholder')} autoFocus />
            </Form.Item>
            <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('passwordPlaceholder')} />
            </Form.Item>
            <Form.Item label={t('verifyCode')} required>
              <Space.Compact block>
                <Form.Item name="verifyCode" noStyle rules={[{ required: true, whitespace: true, message: t('verifyCodeRequired') }]}>
                  <Input prefix={<SafetyOutlined />} autoComplete="one-time-code" inputMode="numeric" maxLength={6} placeholder={t('verifyCodePlaceholder')} aria-label={t('verifyCode')} />
                </Form.Item>
                <SendCodeButton getUsername={usernameForCode} />
              </Space.Compact>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting} className="login-card__submit">
              {t('submit')}
            </Button>
          </Form>
          <p className="login-card__hint">{t('codeHint')}</p>
        </main>
      </div>
    </div>
  );
}
