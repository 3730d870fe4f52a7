import { useTranslation } from 'react-i18next';

/** Shown while a lazy screen or the session loads: a CSS spinner (no antd, so the sign-in page can use it too). */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className="full-page-spin" role="status" aria-live="polite">
      <span className="full-page-spin__ring" aria-hidden="true" />
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}
