import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { OpsMe } from '@portal/contract';
import { FullPageSpin } from '../../components/full-page-spin';
import { opsApi, opsTokens } from './api/ops-http';
import { OpsMeContext } from './ops-me';

const OpsLoginPage = lazy(() => import('./ops-login-page'));
const OpsActivatePage = lazy(() => import('./ops-activate-page'));
const OpsShell = lazy(() => import('./ops-shell'));

/** Signed-in screens: without an operator token, /ops/login?redirect={path}. */
function RequireOperator() {
  const location = useLocation();
  const [me, setMe] = useState<OpsMe | null>(null);
  const token = opsTokens.getToken();
  useEffect(() => {
    if (!token) return;
    opsApi.me().then(setMe, () => undefined);
  }, [token]);
  if (!token) return <Navigate to={`/ops/login?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  if (!me) return <FullPageSpin />;
  return (
    <OpsMeContext value={me}>
      <OpsShell />
    </OpsMeContext>
  );
}

/**
 * The provider's back office (issue 26, decision 038): /ops/… in the same SPA and design, with its
 * own sign-in (password + authenticator), its own token pair and its own API (/api/ops/).
 */
export default function OpsApp() {
  return (
    <Suspense fallback={<FullPageSpin />}>
      <Routes>
        <Route path="login" element={<OpsLoginPage />} />
        <Route path="activate" element={<OpsActivatePage />} />
        <Route path="*" element={<RequireOperator />} />
      </Routes>
    </Suspense>
  );
}
