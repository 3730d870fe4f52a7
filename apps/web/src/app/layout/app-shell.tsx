import { useEffect, useState } from 'react';
import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMerchant, useUser } from '../../lib/session';
import { NavContext } from '../../lib/nav';
import { COOKIE, DAY_SECONDS, getCookie, setCookie } from '../../lib/cookies';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import { ShellRoutes } from './shell-routes';
import { useShellNav } from './use-shell-nav';

const SIDER_WIDTH = 210;
const COLLAPSED_WIDTH = 64;
const COPYRIGHT_FROM = 2015;
const savedCollapsed = () => getCookie(COOKIE.sidebar) === 'collapsed';
const narrow = () => typeof window !== 'undefined' && window.matchMedia?.('(max-width: 991.98px)').matches;

/** The signed-in shell (spec §2 Layout): side menu 210 px (collapses under 992 px), top bar, content, footer. */
export default function AppShell() {
  const { t } = useTranslation(['layout', 'menu']);
  const user = useUser();
  const merchant = useMerchant();
  const nav = useShellNav(user.routers);
  const [collapsed, setCollapsed] = useState(() => savedCollapsed() || narrow());

  const toggle = () =>
    setCollapsed((c) => {
      setCookie(COOKIE.sidebar, c ? 'open' : 'collapsed', 365 * DAY_SECONDS);
      return !c;
    });

  const current = nav.trail.at(-1);
  const pageTitle = current ? t(`menu:${current.name}`) : '';
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${t('layout:product')}` : t('layout:product');
  }, [pageTitle, t]);

  return (
    <NavContext.Provider value={nav}>
      <Layout className="app-shell">
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={COLLAPSED_WIDTH}
          breakpoint="lg"
          collapsible
          trigger={null}
          collapsed={collapsed}
          onBreakpoint={(broken) => setCollapsed(broken || savedCollapsed())}
          className="app-shell__sider"
        >
          <SideMenu routers={user.routers} merId={user.merId} merName={user.merName} contractor={merchant.contractor} collapsed={collapsed} />
        </Layout.Sider>
        <Layout>
          <Layout.Header className="app-shell__header">
            <TopBar collapsed={collapsed} onToggle={toggle} username={user.username} />
          </Layout.Header>
          <Layout.Content className="app-shell__content">
            <ShellRoutes routers={user.routers} permissions={user.permissions} />
          </Layout.Content>
          <Layout.Footer className="app-shell__footer">
            {t('layout:copyright', { from: COPYRIGHT_FROM, to: new Date().getFullYear() })}
          </Layout.Footer>
        </Layout>
      </Layout>
    </NavContext.Provider>
  );
}
