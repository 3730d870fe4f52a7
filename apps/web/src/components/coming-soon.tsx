import { Button, Result } from 'antd';
import { RocketOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useNav } from '../lib/nav';
import { PageContainer } from './page-container';

/**
 * A menu entry whose screen arrives in a later release: a real page in the user's language,
 * never a dead link (the shell routes every unregistered menu entry here).
 */
export function ComingSoonPage() {
  const { t } = useTranslation(['common', 'menu']);
  const { trail } = useNav();
  const navigate = useNavigate();
  const current = trail.at(-1);
  const name = current ? t(`menu:${current.name}`) : '';
  return (
    <PageContainer>
      <Result
        icon={<RocketOutlined style={{ color: '#1456d9' }} />}
        title={t('comingSoon.title', { name })}
        subTitle={t('comingSoon.text')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('comingSoon.home')}
          </Button>
        }
      />
    </PageContainer>
  );
}
