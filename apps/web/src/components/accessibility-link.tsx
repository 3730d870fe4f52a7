import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The footer's link to the accessibility statement (issue 13). */
export function AccessibilityLink() {
  const { t } = useTranslation('accessibility');
  return <Link to="/accessibility">{t('link')}</Link>;
}
