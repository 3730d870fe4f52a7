import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useMerchant, useUser } from '../../lib/session';
import { NavContext } from '../../lib/nav';
import { COOKIE, DAY_SECONDS, getCookie, setCookie } from '../../lib/cookies';
import { hydratingWidth, isServer, serverWidth } from '../../lib/ssr-env';
import { AccessibilityLink } from '../../components/accessibility-link';
import { SideMenu } from './side-menu';
import { menuWithScreens } from './menu-with-screens';
import { TopBar } from './top-bar';
import { ShellRoutes } from './shell-routes';
import { useShellNav } from './use-shell-nav';
import { ChatBubble } from '../../features/chat/chat-bubble';
import { ViewAsBanner } from '../../features/support/view-as-banner';
import { COPYRIGHT_YEAR } from '../../lib/copyright';
export { preloadScreen } from '../feature-routes';

// The narrow screen's menu drawer loads when it is first opened (issue 16: not on every first page).
const Drawer = lazy(() => import('antd/es/drawer'));

const SIDER_WIDTH = 210;
const COLLAPSED_WIDTH = 64;
const COPYRIGHT_FROM = 2015;
const savedCollapsed = () => getCookie(COOKIE.sidebar) === 'collapsed';
const NARROW = '(max-width: 991.98px)';
const narrow = () => typeof window !== 'undefined' && !!window.matchMedia?.(NARROW).matches;
const onNarrowChange = (cb: () => void) => {
  const mq = window.matchMedia?.(NARROW);
  mq?.addEventListener('change', cb);
  return () => mq?.removeEventListener('change', cb);
};
/** True under 992 px: the menu is then a drawer over the page (issue 13, fix 5). */
const useNarrow = () => useSyncExternalStore(onNarrowChange, narrow, serverNarrow);
/** On the server (decision 050): the width the page is rendered for; in the browser hydrating its page, the same (then its own). */
const serverNarrow = () => {
  const w = isServer ? (serverWidth() ?? 1440) : hydratingWidth();
  return w === undefined ? narrow() : w < 992;
};

/** The signed-in shell (spec §2 Layout): side menu 210 px (collapses under 992 px), top bar, content, footer. */
export default function AppShell() {
  const { t } = useTranslation(['layout', 'menu']);
  const user = useUser();
  const merchant = useMerchant();
  const nav = useShellNav(user.routers);
  const [collapsed, setCollapsed] = useState(savedCollapsed);
  const isNarrow = useNarrow();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Mounted from its first opening on (it stays, closed, to animate out and reopen at once).
  const [drawerUsed, setDrawerUsed] = useState(false);
  const { pathname, search } = useLocation();
  // A choice in the drawer navigates: the drawer closes (also on back/forward), and so it does when
  // the window grows past the drawer's width. Adjusted while rendering, not in an effect after it.
  const place = `${pathname}${search}|${isNarrow}`;
  const [drawerPlace, setDrawerPlace] = useState(place);
  if (drawerPlace !== place) {
    setDrawerPlace(place);
    if (drawerOpen) setDrawerOpen(false);
  }
  const navigate = useNavigate();
  // The merchant requires a second factor this user has not set up: the security page first.
  useEffect(() => {
    if (user.mustEnrolTotp && pathname !== '/user/security') navigate('/user/security', { replace: true });
  }, [user.mustEnrolTotp, pathname, navigate]);

  const toggle = () => {
    if (isNarrow) {
      setDrawerUsed(true);
      return setDrawerOpen((o) => !o);
    }
    setCollapsed((c) => {
      setCookie(COOKIE.sidebar, c ? 'open' : 'collapsed', 365 * DAY_SECONDS);
      return !c;
    });
  };
  const menu = (folded: boolean) => <SideMenu routers={menuWithScreens(user.routers)} merId={user.merId} merName={user.merName} contractor={merchant.contractor} collapsed={folded} />;

  const current = nav.trail.at(-1);
  const pageTitle = current ? t(`menu:${current.name}`) : '';
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${t('layout:product')}` : t('layout:product');
  }, [pageTitle, t]);

  return (
    <NavContext.Provider value={nav}>
      <Layout className="app-shell">
        {isNarrow ? (
          drawerUsed && (
            <Suspense fallback={null}>
              <Drawer
                open={drawerOpen}
                onClose={() => setDrawerOpen(false)}
                placement="left"
                size={Math.min(SIDER_WIDTH + 30, 280)}
                closable={false}
                className="app-shell__drawer"
                styles={{ body: { padding: 0 } }}
                aria-label={t('layout:mainMenu')}
              >
                {menu(false)}
              </Drawer>
            </Suspense>
          )
        ) : (
          <Layout.Sider width={SIDER_WIDTH} collapsedWidth={COLLAPSED_WIDTH} collapsible trigger={null} collapsed={collapsed} className="app-shell__sider">
            {menu(collapsed)}
          </Layout.Sider>
        )}
        <Layout className="app-shell__main">
          {user.viewAs && <ViewAsBanner viewAs={user.viewAs} />}
          <Layout.Header className="app-shell__header">
            <TopBar collapsed={isNarrow ? !drawerOpen : collapsed} onToggle={toggle} username={user.username} />
          </Layout.Header>
          <Layout.Content className="app-shell__content">
            <ShellRoutes routers={user.routers} permissions={user.permissions} />
          </Layout.Content>
          <Layout.Footer className="app-shell__footer">
            {t('layout:copyright', { from: COPYRIGHT_FROM, to: COPYRIGHT_YEAR })} · <AccessibilityLink />
          </Layout.Footer>
          {!user.viewAs && <ChatBubble />}
        </Layout>
      </Layout>
    </NavContext.Provider>
  );
}
