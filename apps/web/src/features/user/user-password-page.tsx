import { Button, Card, Result } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';
import { cookieTokens } from '../../lib/tokens';

/**
 * /user/password?username=… (public): change password. The form arrives with the account
 * issue; until then this page names the user it was opened for and leads back.
 */
export default function UserPasswordPage() {
  const { t } = useTranslation('user');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const username = params.get('username');
  const signedIn = !!cookieTokens.getToken();
  return (
    <PublicFrame>
      <Card className="public-card">
        <Result
          icon={<KeyOutlined style={{ color: '#1456d9' }} />}
          title={t('password.title')}
          subTitle={username ? t('password.textFor', { username }) : t('password.text')}
          extra={
            signedIn ? (
              <Button type="primary" onClick={() => navigate('/')}>
                {t('backToPortal')}
              </Button>
            ) : (
              <Button type="primary" onClick={() => navigate('/login')}>
                {t('backToLogin')}
              </Button>
            )
          }
        />
      </Card>
    </PublicFrame>
  );
}
