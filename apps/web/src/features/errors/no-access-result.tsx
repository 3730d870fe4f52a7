import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * A page the signed-in user has no permission for (issue 29 §7: it said "page does not exist"): the
 * page is there, access is missing, and the merchant's main user (the administrator) can grant it.
 */
export function NoAccessResult() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      // The page's heading (issue 53: the page had no h1); antd's title size kept.
      title={<h1 className="result-heading">{t('noAccess.title')}</h1>}
      subTitle={t('noAccess.text')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('notFound.home')}
        </Button>
      }
    />
  );
}
