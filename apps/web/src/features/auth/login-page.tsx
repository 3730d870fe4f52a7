import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import WechatOutlined from '@ant-design/icons-svg/es/asn/WechatOutlined';
import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/lib/types';
import { Code } from '@portal/contract';
import { RequestError } from '../../lib/request';
import { cookieTokens } from '../../lib/tokens';
import { safeRedirect } from '../../lib/redirect';
import { takeSessionError } from '../../lib/session-error';
import { toast } from '../../lib/light-ui';
import { LanguageMenu } from '../../components/light/language-menu';
import { SvgIcon } from '../../components/light/svg-icon';
import { login, passkeyLogin, passkeyLoginOptions, ssoDiscover, ssoLogin, wechatAvailable, wechatLogin, wechatLoginUrl } from './api/login';
import { goToSso, SsoStep } from './sso-step';
import { SendCodeButton } from './send-code-button';
import { LoginHero } from './login-hero';
import './login-page.css';

type Field = 'username' | 'password' | 'verifyCode';
type Errors = Partial<Record<Field, string>>;

/** A labelled input with its icon and, under it, its error (announced, and tied to the input). */
function InputField(props: {
  id: Field;
  label: string;
  icon: IconDefinition;
  error?: string;
  extra?: ReactNode;
  hint?: string;
  input: InputHTMLAttributes<HTMLInputElement>;
  suffix?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { id, label, icon, error, extra, hint, input, suffix, inputRef } = props;
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`light-field${error ? ' has-error' : ''}`}>
      <label htmlFor={id} className="light-field__label">
        {label}
      </label>
      <div className="light-field__row">
        <span className="light-input">
          <SvgIcon icon={icon} className="light-input__prefix" />
          <input ref={inputRef} id={id} name={id} aria-invalid={!!error || undefined} aria-describedby={described} {...input} />
          {suffix}
        </span>
        {extra}
      </div>
      {error && (
        <div id={`${id}-error`} className="light-field__error" role="alert">
          {error}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} className="light-field__hint">
          {hint}
        </div>
      )}
    </div>
  );
}

/**
 * /login: user name, password and the e-mailed code (spec §2, §8). Server errors — each sign-in
 * failure has its own message in the user's language — are shown by the request client. Plain
 * React and CSS, no antd (issue 16: the first page a merchant opens loads little JavaScript).
 */
export default function LoginPage() {
  const { t } = useTranslation(['login', 'layout', 'account', 'sso']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '', verifyCode: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [totp, setTotp] = useState(false);
  const [wechat, setWechat] = useState(false);
  /** Back from WeChat: its ticket and the second factor the server asks for before the session starts. */
  const [wxStep, setWxStep] = useState<{ ticket: string; factor: 'totp' | 'email' } | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  /** The browser can use passkeys (WebAuthn): the "Use a passkey" button is shown. */
  const passkeys = typeof window !== 'undefined' && !!window.PublicKeyCredential;
  const [submitting, setSubmitting] = useState(false);
  /** Issue 51: the e-mail-first SSO step is shown; the user name typed is a work e-mail of a domain with SSO. */
  const [ssoStep, setSsoStep] = useState(false);
  const [ssoDetected, setSsoDetected] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const verifyCodeRef = useRef<HTMLInputElement>(null);

  // The reason a session was refused (handed over by the guard), shown once the page is up.
  useEffect(() => {
    const reason = takeSessionError();
    if (reason) toast('error', reason, { key: 'session-error' });
  }, []);

  useEffect(() => {
    document.title = `${t('title')} · ${t('layout:product')}`;
  }, [t]);

  // WeChat: the button only when the server has a provider; the way back from it.
  useEffect(() => {
    wechatAvailable().then(
      (r) => setWechat(r.available),
      () => setWechat(false),
    );
    const ticket = params.get('wechatTicket');
    if (ticket) {
      wechatLogin(ticket).then(
        (r) => {
          if ('secondFactor' in r) {
            setWxStep({ ticket, factor: r.secondFactor });
            setTotp(r.secondFactor === 'totp');
            return;
          }
          cookieTokens.setTokens(r);
          navigate('/', { replace: true });
        },
        () => navigate('/login', { replace: true }),
      );
    } else if (params.get('wechat') === 'failed') {
      toast('error', t('account:login.wechatFailed'), { key: 'wechat' });
    }
    // Issue 51: back from the identity provider — its one-time ticket trades for the session.
    const ssoTicket = params.get('ssoTicket');
    if (ssoTicket) {
      ssoLogin(ssoTicket).then(
        (pair) => {
          cookieTokens.setTokens(pair);
          navigate('/', { replace: true });
        },
        () => navigate('/login', { replace: true }),
      );
    } else if (params.get('sso') === 'failed') {
      toast('error', t('sso:signin.failed'), { key: 'sso' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  const messages: Record<Field, string> = { username: t('usernameRequired'), password: t('passwordRequired'), verifyCode: t('verifyCodeRequired') };
  const missing = (f: Field, v: string) => (f === 'password' ? v === '' : v.trim() === '');

  const set = (f: Field) => (e: ChangeEvent<HTMLInputElement>) => {
    const v = e.target.value;
    setValues((old) => ({ ...old, [f]: v }));
    if (errors[f]) setErrors((old) => ({ ...old, [f]: missing(f, v) ? messages[f] : undefined }));
  };

  /** Checks the fields (all, or those named), shows their errors and focuses the first wrong one. */
  function validate(fields: Field[]): boolean {
    const found: Errors = {};
    for (const f of fields) if (missing(f, values[f])) found[f] = messages[f];
    setErrors((old) => ({ ...old, ...Object.fromEntries(fields.map((f) => [f, found[f]])) }));
    const first = fields.find((f) => found[f]);
    if (first) ({ username: usernameRef, password: passwordRef, verifyCode: verifyCodeRef })[first].current?.focus();
    return !first;
  }

  /** The second step after WeChat: the code, then the session. */
  async function submitWechat(e: FormEvent) {
    e.preventDefault();
    if (!wxStep || submitting || !validate(['verifyCode'])) return;
    setSubmitting(true);
    try {
      const r = await wechatLogin(wxStep.ticket, values.verifyCode.trim());
      if ('secondFactor' in r) return;
      cookieTokens.setTokens(r);
      navigate('/', { replace: true });
    } catch {
      setValues((old) => ({ ...old, verifyCode: '' }));
    } finally {
      setSubmitting(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !validate(['username', 'password', 'verifyCode'])) return;
    setSubmitting(true);
    try {
      const pair = await login({ username: values.username.trim(), password: values.password, verifyCode: values.verifyCode.trim() });
      cookieTokens.setTokens(pair);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      // An expired password: change it first (spec §8 'password expired, please change').
      if (err instanceof RequestError && err.code === Code.PASSWORD_EXPIRED) {
        navigate(`/user/password?username=${encodeURIComponent(values.username.trim())}`);
        return;
      }
      setValues((old) => ({ ...old, verifyCode: '' }));
    } finally {
      setSubmitting(false);
    }
  }

  /**
   * "Use a passkey" in place of the code (decision 047): user name and password first, then the
   * browser's authenticator answers the challenge the server bound to this attempt.
   */
  async function submitPasskey() {
    if (submitting || !validate(['username', 'password'])) return;
    setSubmitting(true);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { attempt, options } = await passkeyLoginOptions(values.username.trim(), values.password);
      let answer;
      try {
        answer = await startAuthentication({ optionsJSON: options });
      } catch {
        toast('error', t('account:login.passkeyCancelled'), { key: 'passkey' });
        return;
      }
      const pair = await passkeyLogin(attempt, JSON.stringify(answer));
      cookieTokens.setTokens(pair);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      if (err instanceof RequestError && err.code === Code.PASSWORD_EXPIRED) navigate(`/user/password?username=${encodeURIComponent(values.username.trim())}`);
    } finally {
      setSubmitting(false);
    }
  }

  const codeLabel = totp ? t('account:login.totpCode') : t('verifyCode');

  return (
    <div className="login-screen">
      <LoginHero />
      <div className="login-panel">
        <div className="login-panel__top">
          <LanguageMenu />
        </div>
        <main className="login-card">
          <h1 className="login-card__title">{t('title')}</h1>
          <p className="login-card__subtitle">{t('subtitle')}</p>
          {ssoStep && !wxStep ? (
            <SsoStep initialEmail={values.username} onBack={() => setSsoStep(false)} />
          ) : wxStep ? (
            <form className="light-form" noValidate onSubmit={submitWechat} data-testid="wechat-second-factor">
              <p role="status">{wxStep.factor === 'totp' ? t('account:login.wechatTotpStep') : t('account:login.wechatEmailStep')}</p>
              <InputField
                id="verifyCode"
                label={codeLabel}
                icon={SafetyOutlined}
                error={errors.verifyCode}
                hint={totp ? t('account:login.totpHint') : undefined}
                inputRef={verifyCodeRef}
                input={{
                  value: values.verifyCode,
                  onChange: set('verifyCode'),
                  autoComplete: 'one-time-code',
                  inputMode: totp ? 'text' : 'numeric',
                  maxLength: totp ? 11 : 6,
                  placeholder: t('verifyCodePlaceholder'),
                  required: true,
                  autoFocus: true,
                }}
              />
              <button type="submit" className="light-button light-button--primary light-button--large light-button--block login-card__submit" aria-busy={submitting || undefined} disabled={submitting}>
                {submitting ? t('signingIn') : t('submit')}
              </button>
            </form>
          ) : (
            <form className="light-form" noValidate onSubmit={submit}>
              <InputField
                id="username"
                label={t('username')}
                icon={UserOutlined}
                error={errors.username}
                inputRef={usernameRef}
                input={{
                  value: values.username,
                  onChange: set('username'),
                  // Issue 51: a work e-mail of a domain with SSO is offered "Sign in with SSO".
                  onBlur: () => {
                    const v = values.username.trim();
                    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return setSsoDetected(false);
                    ssoDiscover(v).then(
                      (r) => setSsoDetected(r.sso),
                      () => setSsoDetected(false),
                    );
                  },
                  autoComplete: 'username',
                  placeholder: t('usernamePlaceholder'),
                  autoFocus: true,
                  required: true,
                }}
              />
              {ssoDetected && (
                <div className="login-card__sso" role="status">
                  <span>{t('sso:signin.detected')}</span>
                  <button type="button" className="light-button light-button--primary light-button--block" onClick={() => goToSso(values.username).catch(() => undefined)}>
                    <SvgIcon icon={SafetyCertificateOutlined} />
                    <span>{t('sso:signin.sso')}</span>
                  </button>
                </div>
              )}
              <InputField
                id="password"
                label={t('password')}
                icon={LockOutlined}
                error={errors.password}
                inputRef={passwordRef}
                input={{
                  type: showPassword ? 'text' : 'password',
                  value: values.password,
                  onChange: set('password'),
                  autoComplete: 'current-password',
                  placeholder: t('passwordPlaceholder'),
                  required: true,
                }}
                suffix={
                  <button
                    type="button"
                    className="light-input__eye"
                    aria-label={showPassword ? t('hidePassword') : t('showPassword')}
                    aria-pressed={showPassword}
                    onClick={() => setShowPassword((s) => !s)}
                  >
                    <SvgIcon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
                  </button>
                }
              />
              <div className="login-card__forgot">
                <Link to="/user/forgot">{t('account:forgot.link')}</Link>
              </div>
              <InputField
                id="verifyCode"
                label={codeLabel}
                icon={SafetyOutlined}
                error={errors.verifyCode}
                hint={totp ? t('account:login.totpHint') : undefined}
                inputRef={verifyCodeRef}
                input={{
                  value: values.verifyCode,
                  onChange: set('verifyCode'),
                  autoComplete: 'one-time-code',
                  inputMode: totp ? 'text' : 'numeric',
                  maxLength: totp ? 11 : 6,
                  placeholder: t('verifyCodePlaceholder'),
                  required: true,
                }}
                extra={
                  <SendCodeButton
                    getCredentials={() => (validate(['username', 'password']) ? { username: values.username.trim(), password: values.password } : null)}
                    onTotp={setTotp}
                    onDone={() => verifyCodeRef.current?.focus()}
                  />
                }
              />
              <button type="submit" className="light-button light-button--primary light-button--large light-button--block login-card__submit" aria-busy={submitting || undefined} disabled={submitting}>
                {submitting ? t('signingIn') : t('submit')}
              </button>
              {passkeys && (
                <button type="button" className="light-button light-button--large light-button--block" onClick={submitPasskey} disabled={submitting} aria-describedby="passkey-hint">
                  <SvgIcon icon={KeyOutlined} />
                  <span>{t('account:login.usePasskey')}</span>
                </button>
              )}
              {passkeys && (
                <p id="passkey-hint" className="login-card__hint">
                  {t('account:login.passkeyHint')}
                </p>
              )}
            </form>
          )}
          {!wxStep && !ssoStep && (
            <>
              <div className="light-divider" role="separator">
                <span>{t('account:login.or')}</span>
              </div>
              <button type="button" className="light-button light-button--large light-button--block" onClick={() => setSsoStep(true)}>
                <SvgIcon icon={SafetyCertificateOutlined} />
                <span>{t('sso:signin.sso')}</span>
              </button>
            </>
          )}
          {/* WeChat sits under the same divider as SSO (issue 51). */}
          {wechat && !wxStep && !ssoStep && (
            <>
              <button
                type="button"
                className="light-button light-button--large light-button--block"
                onClick={() =>
                  wechatLoginUrl().then(
                    (r) => window.location.assign(r.url),
                    () => undefined,
                  )
                }
              >
                <SvgIcon icon={WechatOutlined} />
                <span>{t('account:login.wechat')}</span>
              </button>
            </>
          )}
          {!ssoStep && <p className="login-card__hint">{t('codeHint')}</p>}
        </main>
      </div>
    </div>
  );
}
