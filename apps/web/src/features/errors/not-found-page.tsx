import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';
import { NotFoundResult } from './not-found-result';

/** The public /404 page. */
export default function NotFoundPage() {
  const { t } = useTranslation('common');
  useEffect(() => {
    document.title = t('notFound.title');
  }, [t]);
  return (
    <PublicFrame>
      <NotFoundResult />
    </PublicFrame>
  );
}
