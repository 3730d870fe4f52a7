import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';
import { cookieTokens } from '../../lib/tokens';
import { updatePassword } from '../account/api/account';
import { PasswordFields } from '../account/components/password-fields';
import { passwordIcon } from '../../components/password-icon';
import { useApp } from '../../app/lazy-app';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * /user/password?username=… (public, spec §2): change the password. Signed in, it changes the
 * caller's password and the other sessions end; without a session it is the way back in for a
 * password that expired (the sign-in page sends the user here with the user name).
 */
export default function UserPasswordPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const { message, modal } = useApp();
  const [params] = useSearchParams();
  const username = params.get('username') ?? '';
  const signedIn = !!cookieTokens.getToken();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    document.title = t('password.title');
  }, [t]);

  async function save(v: PasswordForm) {
    setSaving(true);
    try {
      await updatePassword(signedIn ? v : { ...v, username });
      if (signedIn) {
        message.success(t('password.done'));
        navigate('/', { replace: true });
      } else {
        message.success(t('password.doneSignIn'));
        navigate('/login', { replace: true });
      }
    } catch {
      /* the request client shows the server's message */
    } finally {
      setSaving(false);
    }
  }

  const submit = (v: PasswordForm) => {
    if (!signedIn) return void save(v);
    modal.confirm({ title: t('password.title'), content: t('password.confirm'), onOk: () => save(v) });
  };

  return (
    <PublicFrame>
      <Card className="public-card">
        <Typography.Title level={1} style={{ fontSize: 22 }}>
          {t('password.title')}
        </Typography.Title>
        {username && <Alert type={signedIn ? 'info' : 'warning'} showIcon title={t(signedIn ? 'password.for' : 'password.expiredFor', { username })} style={{ marginBottom: 16 }} />}
        <Form<PasswordForm> layout="vertical" requiredMark={false} onFinish={submit}>
          <Form.Item name="oldPassword" label={t('oldPassword')} rules={[{ required: true, message: t('required') }]}>
            <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <PasswordFields />
          <Button type="primary" htmlType="submit" block loading={saving}>
            {t('password.submit')}
          </Button>
        </Form>
        <Button type="link" block onClick={() => navigate(signedIn ? '/' : '/login')} style={{ marginTop: 8 }}>
          {signedIn ? t('backToPortal') : t('backToLogin')}
        </Button>
      </Card>
    </PublicFrame>
  );
}
