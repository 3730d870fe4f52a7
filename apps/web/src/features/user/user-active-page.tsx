import { Button, Card, Result } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';

/**
 * /user/active (public): account activation opened from the activation e-mail. The activation
 * screen itself arrives with user management; until then this page says so and leads back.
 */
export default function UserActivePage() {
  const { t } = useTranslation('user');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const username = params.get('username');
  return (
    <PublicFrame>
      <Card className="public-card">
        <Result
          icon={<MailOutlined style={{ color: '#1456d9' }} />}
          title={t('active.title')}
          subTitle={username ? t('active.textFor', { username }) : t('active.text')}
          extra={
            <Button type="primary" onClick={() => navigate('/login')}>
              {t('backToLogin')}
            </Button>
          }
        />
      </Card>
    </PublicFrame>
  );
}
