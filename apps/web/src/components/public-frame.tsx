import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from './language-select';
import { AccessibilityLink } from './accessibility-link';
import logo from '../assets/logo.svg';
import { COPYRIGHT_YEAR } from '../lib/copyright';

/** The frame of the public screens other than sign-in (/404, /user/active, /user/password). */
export function PublicFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('layout');
  return (
    <div className="public-frame">
      <header className="public-frame__head">
        <Link to="/" className="public-frame__brand">
          <img src={logo} alt="" width={28} height={28} />
          <span>{t('product')}</span>
        </Link>
        <LanguageSelect variant="outlined" />
      </header>
      <main className="public-frame__body">{children}</main>
      <footer className="public-frame__foot">
        {t('copyright', { from: 2015, to: COPYRIGHT_YEAR })} · <AccessibilityLink />
      </footer>
    </div>
  );
}
