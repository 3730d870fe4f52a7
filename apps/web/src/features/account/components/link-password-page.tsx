import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Result, Spin, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../../components/public-frame';
import { PasswordFields } from './password-fields';
import { useApp } from '../../../app/lazy-app';

type Passwords = { newPassword: string; confirmPassword: string };

/**
 * A public page opened from an e-mailed link (`?token=…`) that sets a password: it looks the link
 * up (`load`), shows whose account it is, and submits the new password. `keys` is the account
 * namespace's prefix of its texts (title, for, submit, done, expired); an expired or unknown link
 * offers `expired` (a path and the key of its button's text).
 */
export function LinkPasswordPage(props: {
  keys: 'reset' | 'active';
  /** The link's owner: the values its 'for' text names (username, and more for an activation). */
  load: (token: string) => Promise<Record<string, string>>;
  save: (body: { token: string } & Passwords) => Promise<unknown>;
  expired: { to: string; label: string };
}) {
  const { keys, load, save, expired } = props;
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const { message } = useApp();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [info, setInfo] = useState<Record<string, string> | null | 'expired'>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    document.title = t(`${keys}.title`);
    load(token).then(setInfo, () => setInfo('expired'));
  }, [token, t, keys, load]);

  async function submit(v: Passwords) {
    setSaving(true);
    try {
      await save({ token, ...v });
      message.success(t(`${keys}.done`));
      navigate('/login', { replace: true });
    } catch {
      /* the request client shows the server's message */
    } finally {
      setSaving(false);
    }
  }

  return (
    <PublicFrame>
      <Card className="public-card">
        {info === null ? (
          <Spin />
        ) : info === 'expired' ? (
          <Result
            status="warning"
            title={t(`${keys}.expired`)}
            extra={
              <Button type="primary" onClick={() => navigate(expired.to)}>
                {t(expired.label)}
              </Button>
            }
          />
        ) : (
          <>
            <Typography.Title level={1} style={{ fontSize: 22 }}>
              {t(`${keys}.title`)}
            </Typography.Title>
            <Alert type="info" showIcon title={t(`${keys}.for`, info)} style={{ marginBottom: 16 }} />
            <Form layout="vertical" requiredMark={false} onFinish={submit}>
              <PasswordFields />
              <Button type="primary" htmlType="submit" block loading={saving}>
                {t(`${keys}.submit`)}
              </Button>
            </Form>
          </>
        )}
      </Card>
    </PublicFrame>
  );
}
