import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Code } from '@portal/contract';
import { RequestError } from '../../lib/request';
import { toast } from '../../lib/light-ui';
import { getEmailCode } from './api/login';

const RESEND_SECONDS = 60;

/**
 * Sends the e-mailed sign-in code for the user name and password the form holds (the password is
 * checked first, so the answer tells nobody which factor an account has before it is right — issue
 * 47), then counts down 60 s before another may be asked. When the server says to wait (code resent
 * too soon), it counts down from that. `onDone` runs when a code is on its way (the login form moves
 * the focus to the code field).
 */
export function SendCodeButton({ getCredentials, onTotp, onDone }: { getCredentials: () => { username: string; password: string } | null; onTotp?: (totp: boolean) => void; onDone?: () => void }) {
  const navigate = useNavigate();
  const { t } = useTranslation(['login', 'account']);
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  async function send() {
    const credentials = getCredentials();
    if (!credentials) return;
    setSending(true);
    try {
      const r = await getEmailCode(credentials.username, credentials.password);
      onTotp?.(!!r.totp);
      // A code is on its way (or is the authenticator's): the focus goes on to the code field, not to
      // the page body the disabled button would leave it on (issue 29 §6).
      setTimeout(() => onDone?.());
      // With an authenticator the code is the app's: no mail went out.
      if (r.totp) return;
      // The merchant requires this user's passkey (decision 047): no mail went out either.
      if (r.passkey) {
        toast('error', t('account:login.passkeyRequired'));
        return;
      }
      toast('success', t('codeSent'));
      setLeft(r.resendAfter || RESEND_SECONDS);
    } catch (err) {
      // An expired password: change it first, as the sign-in itself does.
      if (err instanceof RequestError && err.code === Code.PASSWORD_EXPIRED) {
        navigate(`/user/password?username=${encodeURIComponent(credentials.username)}`);
        return;
      }
      const wait = err instanceof RequestError ? (err.data as { wait?: number } | null)?.wait : undefined;
      if (wait) setLeft(wait);
    } finally {
      setSending(false);
    }
  }

  return (
    <button type="button" onClick={send} disabled={left > 0 || sending} aria-busy={sending || undefined} className="light-button light-button--large send-code-button" data-testid="send-code">
      {sending ? t('sending') : left > 0 ? t('resendIn', { s: left }) : t('sendCode')}
    </button>
  );
}
