import { useState } from 'react';
import { Menu, Tooltip, Typography } from 'antd';
import type { MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouterItem } from '@portal/contract';
import { useNav } from '../../lib/nav';
import { menuIcon } from './menu-icons';
import logo from '../../assets/logo.svg';
import partnerLogo from '../../assets/logo-partner.svg';

type Item = Required<MenuProps>['items'][number];

function toItems(routers: RouterItem[], t: (k: string) => string): Item[] {
  return routers
    .filter((r) => !r.hidden)
    .map((r) => {
      const visibleChildren = r.children?.filter((c) => !c.hidden) ?? [];
      const base = { key: r.path, icon: menuIcon(r.icon), label: t(r.name) };
      return visibleChildren.length ? { ...base, children: toItems(visibleChildren, t) } : base;
    });
}

export interface SideMenuProps {
  routers: RouterItem[];
  merId: string;
  merName: string;
  contractor: number;
  collapsed: boolean;
}

/** The side menu (spec §2): logos, the merchant's id and name, and the user's routers. */
export function SideMenu({ routers, merId, merName, contractor, collapsed }: SideMenuProps) {
  const { t } = useTranslation(['menu', 'layout']);
  const navigate = useNavigate();
  const nav = useNav();
  const [openKeys, setOpenKeys] = useState<string[]>(nav.openKeys);
  // The current page's group opens (others the user opened stay open): adjusted while rendering.
  const [seenOpenKeys, setSeenOpenKeys] = useState(nav.openKeys);
  if (seenOpenKeys !== nav.openKeys) {
    setSeenOpenKeys(nav.openKeys);
    setOpenKeys((k) => [...new Set([...k, ...nav.openKeys])]);
  }

  return (
    <nav aria-label={t('layout:mainMenu')} className="side-menu">
      <div className={`side-menu__brand${collapsed ? ' is-collapsed' : ''}${contractor === 2 ? ' has-partner' : ''}`}>
        <img src={logo} alt={t('layout:product')} width={28} height={28} />
        {contractor === 2 && (
          <>
            <span className="side-menu__brand-sep" aria-hidden />
            <img src={partnerLogo} alt={t('layout:partnerLogo')} width={28} height={28} data-testid="partner-logo" />
          </>
        )}
        {!collapsed && <span className="side-menu__product">{t('layout:product')}</span>}
      </div>
      {collapsed ? (
        <Tooltip placement="right" title={`${merId} · ${merName}`}>
          <div className="side-menu__merchant is-collapsed" aria-label={`${merId} ${merName}`}>
            {merName.slice(0, 1)}
          </div>
        </Tooltip>
      ) : (
        <div className="side-menu__merchant" data-testid="merchant-info">
          <Typography.Text className="side-menu__merchant-label">{t('layout:merchantId')}</Typography.Text>
          <Typography.Text className="side-menu__merchant-id" copyable={{ text: merId, tooltips: false }}>
            {merId}
          </Typography.Text>
          <Typography.Text className="side-menu__merchant-name" ellipsis={{ tooltip: merName }}>
            {merName}
          </Typography.Text>
        </div>
      )}
      <div className="side-menu__scroll">
        <Menu
          theme="dark"
          mode="inline"
          items={toItems(routers, (k) => t(`menu:${k}`))}
          selectedKeys={nav.selectedKey ? [nav.selectedKey] : []}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={(keys) => setOpenKeys(keys as string[])}
          onClick={({ key }) => navigate(key)}
        />
      </div>
    </nav>
  );
}
