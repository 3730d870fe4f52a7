import { useEffect, useState } from 'react';
import { App, Button, Divider, Form, Input, Space } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Code } from '@portal/contract';
import { RequestError } from '../../lib/request';
import { wechatAvailable, wechatLogin, wechatLoginUrl } from '../account/api/account';
import { useTranslation } from 'react-i18next';
import { cookieTokens } from '../../lib/tokens';
import { LanguageSelect } from '../../components/language-select';
import { safeRedirect } from '../../lib/redirect';
import { takeSessionError } from '../../lib/session-error';
import { ERROR_SECONDS } from '../../lib/http';
import { login } from './api/login';
import { SendCodeButton } from './send-code-button';
import { LoginHero } from './login-hero';
import { passwordIcon } from '../../components/password-icon';

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
  const { t } = useTranslation(['login', 'layout', 'account']);
  const [totp, setTotp] = useState(false);
  const [wechat, setWechat] = useState(false);
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

  // WeChat: the button only when the server has a provider; the way back from it.
  useEffect(() => {
    wechatAvailable().then((r) => setWechat(r.available), () => setWechat(false));
    const ticket = params.get('wechatTicket');
    if (ticket) {
      wechatLogin(ticket).then(
        (pair) => {
          cookieTokens.setTokens(pair);
          navigate('/', { replace: true });
        },
        () => navigate('/login', { replace: true }),
      );
    } else if (params.get('wechat') === 'failed') {
      message.error({ content: t('account:login.wechatFailed'), duration: ERROR_SECONDS, key: 'wechat' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  async function submit(values: LoginForm) {
    setSubmitting(true);
    try {
      const pair = await login({ username: values.username.trim(), password: values.password, verifyCode: values.verifyCode.trim() });
      cookieTokens.setTokens(pair);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      // An expired password: change it first (spec §8 'password expired, please change').
      if (err instanceof RequestError && err.code === Code.PASSWORD_EXPIRED) {
        navigate(`/user/password?username=${encodeURIComponent(values.username.trim())}`);
        return;
      }
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
              <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="current-password" placeholder={t('passwordPlaceholder')} />
            </Form.Item>
            <div className="login-card__forgot">
              <Link to="/user/forgot">{t('account:forgot.link')}</Link>
            </div>
            <Form.Item label={totp ? t('account:login.totpCode') : t('verifyCode')} required extra={totp ? t('account:login.totpHint') : undefined}>
              <Space.Compact block>
                <Form.Item name="verifyCode" noStyle rules={[{ required: true, whitespace: true, message: t('verifyCodeRequired') }]}>
                  <Input prefix={<SafetyOutlined />} autoComplete="one-time-code" inputMode={totp ? 'text' : 'numeric'} maxLength={totp ? 11 : 6} placeholder={t('verifyCodePlaceholder')} aria-label={totp ? t('account:login.totpCode') : t('verifyCode')} />
                </Form.Item>
                <SendCodeButton getUsername={usernameForCode} onTotp={setTotp} />
              </Space.Compact>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting} className="login-card__submit">
              {t('submit')}
            </Button>
          </Form>
          {wechat && (
            <>
              <Divider plain>{t('account:login.or')}</Divider>
              <Button block size="large" icon={<WechatOutlined />} onClick={() => wechatLoginUrl().then((r) => window.location.assign(r.url), () => undefined)}>
                {t('account:login.wechat')}
              </Button>
            </>
          )}
          <p className="login-card__hint">{t('codeHint')}</p>
        </main>
      </div>
    </div>
  );
}
