import { ArrowRightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** A notice's link: portal paths open in the portal (e.g. the old summary report), others in a new tab. */
export function NoticeLink({ href }: { href: string }) {
  const { t } = useTranslation('notice');
  const label = (
    <>
      {t('openLink')} <ArrowRightOutlined />
    </>
  );
  if (href.startsWith('/') && !href.startsWith('//')) {
    return (
      <Link to={href} className="notice-link">
        {label}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="notice-link">
      {label}
    </a>
  );
}
