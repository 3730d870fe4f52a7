import { Avatar, Dropdown } from 'antd';
import { DownOutlined, IdcardOutlined, KeyOutlined, LogoutOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';
import { cookieTokens } from '../../lib/tokens';
import { AuthApi } from '@portal/contract';

/** The user dropdown (spec §2): user information, update password, security, log out. */
export function UserMenu({ username }: { username: string }) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();

  async function logout() {
    // The server revokes the session; whatever it answers, this browser forgets it. A full page
    // load of /login resets every piece of client state at once (session store, query cache).
    await http.call(AuthApi.logout, undefined, { quiet: true }).catch(() => undefined);
    cookieTokens.clear();
    window.location.replace('/login');
  }

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'info', icon: <IdcardOutlined />, label: t('userInfo') },
          { key: 'password', icon: <KeyOutlined />, label: t('updatePassword') },
          { key: 'security', icon: <SafetyCertificateOutlined />, label: t('security') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'info') navigate('/user/info');
          else if (key === 'security') navigate('/user/security');
          else if (key === 'password') navigate(`/user/password?username=${encodeURIComponent(username)}`);
          else void logout();
        },
      }}
    >
      <button type="button" className="user-menu" aria-label={`${t('userMenu')}: ${username}`} data-testid="user-menu">
        <Avatar size="small" icon={<UserOutlined />} style={{ background: '#1456d9' }} />
        <span className="user-menu__name">{username}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}
