import { Breadcrumb, Button } from 'antd';
import { HomeOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useNav } from '../../lib/nav';
import { LanguageSelect } from '../../components/language-select';
import { UserMenu } from './user-menu';
import { GlobalSearch } from '../../features/search/global-search';

/** Top bar (spec §2): menu toggle, breadcrumb, global search (issue 13), language selector, user dropdown. */
export function TopBar({ collapsed, onToggle, username }: { collapsed: boolean; onToggle: () => void; username: string }) {
  const { t } = useTranslation(['menu', 'layout']);
  const { trail } = useNav();
  const items = [
    {
      key: 'home',
      title: (
        <Link to="/" aria-label={t('layout:home')}>
          <HomeOutlined />
        </Link>
      ),
    },
    ...trail.map((item, i) => ({
      key: `${i}-${item.name}`,
      title: item.path && i < trail.length - 1 ? <Link to={item.path}>{t(`menu:${item.name}`)}</Link> : t(`menu:${item.name}`),
    })),
  ];
  return (
    <div className="top-bar">
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
        aria-label={t(collapsed ? 'layout:expandMenu' : 'layout:collapseMenu')}
        aria-expanded={!collapsed}
      />
      <Breadcrumb className="top-bar__breadcrumb" items={items} />
      <div className="top-bar__actions">
        <GlobalSearch />
        <LanguageSelect />
        <UserMenu username={username} />
      </div>
    </div>
  );
}
