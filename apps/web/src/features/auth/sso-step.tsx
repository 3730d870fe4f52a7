import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import MailOutlined from '@ant-design/icons-svg/es/asn/MailOutlined';
import { SvgIcon } from '../../components/light/svg-icon';
import { ssoStart } from './api/login';

/** Sends the browser to the identity provider of the e-mail's domain (the server answers where). */
export async function goToSso(email: string): Promise<void> {
  const { url } = await ssoStart(email.trim());
  window.location.assign(url);
}

/**
 * "Sign in with SSO" (issue 51): the work e-mail first; a domain a merchant verified sends the
 * browser to its identity provider. Plain React and CSS like the rest of the sign-in page.
 */
export function SsoStep({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const { t } = useTranslation(['sso']);
  const [email, setEmail] = useState(initialEmail.includes('@') ? initialEmail : '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError(t('signin.emailRequired'));
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await goToSso(email);
    } catch {
      setBusy(false);
    }
  }

  return (
    <form className="light-form" noValidate onSubmit={submit} data-testid="sso-step">
      <div className={`light-field${error ? ' has-error' : ''}`}>
        <label htmlFor="sso-email" className="light-field__label">
          {t('signin.emailTitle')}
        </label>
        <div className="light-field__row">
          <span className="light-input">
            <SvgIcon icon={MailOutlined} className="light-input__prefix" />
            <input
              id="sso-email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={!!error || undefined}
              aria-describedby={error ? 'sso-email-error sso-email-hint' : 'sso-email-hint'}
              autoFocus
              required
            />
          </span>
        </div>
        {error && (
          <div id="sso-email-error" className="light-field__error" role="alert">
            {error}
          </div>
        )}
        <div id="sso-email-hint" className="light-field__hint">
          {t('signin.emailHint')}
        </div>
      </div>
      <button type="submit" className="light-button light-button--primary light-button--large light-button--block login-card__submit" aria-busy={busy || undefined} disabled={busy}>
        {busy ? t('signin.redirecting') : t('signin.continue')}
      </button>
      <button type="button" className="light-button light-button--large light-button--block" onClick={onBack}>
        {t('signin.back')}
      </button>
    </form>
  );
}
