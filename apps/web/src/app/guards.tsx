import { lazy, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cookieTokens } from '../lib/tokens';
import { useSession } from '../lib/session';
import { RequestError } from '../lib/request';
import { rememberSessionError } from '../lib/session-error';
import { loginPath } from '../lib/redirect';
import { loadSession } from './session-bootstrap';
import { FullPageSpin } from '../components/full-page-spin';

const ServerUnreachable = lazy(() => import('../components/server-unreachable'));

/** With a token, /login goes to / (spec §4). */
export function PublicOnly({ children }: { children: ReactNode }) {
  if (cookieTokens.getToken()) return <Navigate to="/" replace />;
  return children;
}

/** No answer from the server (offline, timeout, proxy error, or a request cut by leaving the page). */
const isTransport = (err: unknown) => err instanceof RequestError && err.code === null;

/**
 * Without a token: /login?redirect={path}. With one, on first entry: merchant info, then user
 * info, then the server's routes are in place (spec §4). When the server refuses (session ended,
 * any error code): token cleared, error shown, back to /login?redirect={path}. When it cannot be
 * reached at all, the session is kept and the page offers to try again.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { user } = useSession();
  const token = cookieTokens.getToken();
  const [failed, setFailed] = useState(false);
  const [unreachable, setUnreachable] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token || user) return;
    let cancelled = false;
    // oxlint-disable-next-line react/set-state-in-effect -- a new try of the session load this effect starts clears the last failure
    setUnreachable(false);
    loadSession().catch((err: Error) => {
      if (isTransport(err)) {
        if (!cancelled) setUnreachable(true);
        return;
      }
      // Refused: the token goes and the reason is handed to the sign-in page, which shows it.
      cookieTokens.clear();
      rememberSessionError(err?.message || t('error.hasError'));
      if (cancelled) return;
      setFailed(true);
      navigate(loginPath(location), { replace: true });
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load once per token (or retry)
  }, [token, user, attempt]);

  if (!token && !failed) return <Navigate to={loginPath(location)} replace />;
  if (unreachable) return <ServerUnreachable onRetry={() => setAttempt((n) => n + 1)} />;
  if (!user) return <FullPageSpin />;
  return children;
}
