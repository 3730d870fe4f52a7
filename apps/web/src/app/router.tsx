import { lazy, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { RequireAuth, PublicOnly } from './guards';
import { preloadTexts } from '../lib/i18n';
import { prependStylesheet } from '../lib/stylesheet';
import antdStylesHref from 'virtual:antd-styles';
import { landsOnPhone, PHONE_PATH } from '../features/phone/phone-route';
import { prefetchFirstFigures } from '../features/phone/api';

const loadLogin = () => import('../features/auth/login-page');
const LoginPage = lazy(loadLogin);
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));
const UserActivePage = lazy(() => import('../features/user/user-active-page'));
const UserPasswordPage = lazy(() => import('../features/user/user-password-page'));
const ForgotPasswordPage = lazy(() => import('../features/account/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/account/reset-password-page'));
/** The signed-in shell (layout, menu, every feature screen) loads only after sign-in. */
const AccessibilityPage = lazy(() => import('../features/accessibility/accessibility-page'));
const loadShell = () => import('./layout/app-shell');
const loadProviders = () => import('./providers');
const AppShell = lazy(loadShell);
/** antd, its locale and TanStack Query: loaded for every screen but sign-in (issue 16). */
const AntdProviders = lazy(loadProviders);
/** The provider's back office (issue 26): /ops/…, its own sign-in and API. */
const OpsApp = lazy(() => import('../features/ops/ops-app'));
/** A support view's tab (decision 046): takes the view-as token from the fragment. */
const ViewAsEntry = lazy(() => import('../features/support/view-as-entry'));

/** The phone home screen (decision 042): plain React and CSS, no antd before its order button is pressed. */
const loadPhone = () => import('../features/phone/phone-home');
const PhoneHome = lazy(loadPhone);

/** Public pages besides /login (which redirects a signed-in visitor into the shell). */
const PUBLIC = ['/view-as', '/404', '/user/active', '/user/password', '/user/forgot', '/user/reset', '/accessibility'];

/**
 * Signed in, on a screen of the shell: antd's providers, the shell, its texts, then the screen
 * itself start loading at once, beside the session's first call — not each after the one before
 * (issue 16, target 6: the transaction list waited for five requests in a row).
 */
export function preloadShell(pathname: string): void {
  if (PUBLIC.includes(pathname)) return;
  // The phone home screen loads its own chunk and texts, not the shell's or antd's.
  if (pathname === PHONE_PATH || landsOnPhone(pathname)) {
    loadPhone().catch(() => undefined);
    preloadTexts(['phone']);
    // Its figures at once, beside the session's first calls (features/phone/api.ts).
    prefetchFirstFigures();
    return;
  }
  // antd's component styles (decision 031) download beside the scripts, not after antd's chunk ran.
  void prependStylesheet(antdStylesHref);
  loadProviders().catch(() => undefined);
  loadShell().then(
    (m) => m.preloadScreen(pathname),
    () => undefined,
  );
  preloadTexts(['layout', 'menu', 'search']);
}
/**
 * Signed out, on /login or on a screen that sends the visitor there: the sign-in page and its
 * texts start loading at once, beside the common texts, not after the page's code has run
 * (issue 16, target 6: its texts were the fourth request in a row).
 */
export function preloadLogin(pathname: string): void {
  if (PUBLIC.includes(pathname)) return;
  loadLogin().catch(() => undefined);
  preloadTexts(['login', 'layout', 'account', /* issue 51 */ 'sso']);
}
const withAntd = (page: ReactNode) => <AntdProviders>{page}</AntdProviders>;

/** A phone (≤ 600 px) opening the portal's root lands on the phone home screen (decision 042). */
function PhoneLanding({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return landsOnPhone(pathname) ? <Navigate to={PHONE_PATH} replace /> : children;
}

/**
 * Public: /login (without antd), /404, /user/active, /user/password (spec §4). Everything else needs a token
 * (else /login?redirect={path}) and renders inside the shell, whose routes come from the
 * server's routers and the feature registry (feature-routes.tsx).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <PublicOnly>
            <LoginPage />
          </PublicOnly>
        }
      />
      <Route path="/404" element={withAntd(<NotFoundPage />)} />
      <Route path="/user/active" element={withAntd(<UserActivePage />)} />
      <Route path="/user/password" element={withAntd(<UserPasswordPage />)} />
      <Route path="/user/forgot" element={withAntd(<ForgotPasswordPage />)} />
      <Route path="/user/reset" element={withAntd(<ResetPasswordPage />)} />
      <Route path="/accessibility" element={withAntd(<AccessibilityPage />)} />
      <Route path="/ops/*" element={withAntd(<OpsApp />)} />
      <Route path="/view-as" element={<ViewAsEntry />} />
      <Route
        path={PHONE_PATH}
        element={
          <RequireAuth>
            <PhoneHome />
          </RequireAuth>
        }
      />
      <Route
        path="*"
        element={
          <PhoneLanding>
            {withAntd(
              <RequireAuth>
                <AppShell />
              </RequireAuth>,
            )}
          </PhoneLanding>
        }
      />
    </Routes>
  );
}
