import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Result, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';
import { forgotPassword } from './api/account';

/** /user/forgot (public): user name or e-mail → an e-mailed reset link; the same answer whether the account exists or not. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const [sent, setSent] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    document.title = t('forgot.title');
  }, [t]);

  async function submit(v: { account: string }) {
    setSending(true);
    try {
      setSent((await forgotPassword(v.account.trim())).msg);
    } catch {
      /* shown by the request client */
    } finally {
      setSending(false);
    }
  }

  return (
    <PublicFrame>
      <Card className="public-card">
        {sent ? (
          <Result
            status="success"
            title={sent}
            extra={
              <Button type="primary" onClick={() => navigate('/login')}>
                {t('backToLogin')}
              </Button>
            }
          />
        ) : (
          <>
            <Typography.Title level={1} style={{ fontSize: 22 }}>
              {t('forgot.title')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t('forgot.text')}</Typography.Paragraph>
            <Form layout="vertical" requiredMark={false} onFinish={submit}>
              <Form.Item name="account" label={t('forgot.account')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
                <Input prefix={<UserOutlined />} autoComplete="username" maxLength={254} />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={sending}>
                {t('forgot.submit')}
              </Button>
            </Form>
            <Button type="link" block onClick={() => navigate('/login')} style={{ marginTop: 8 }}>
              {t('backToLogin')}
            </Button>
          </>
        )}
      </Card>
    </PublicFrame>
  );
}
