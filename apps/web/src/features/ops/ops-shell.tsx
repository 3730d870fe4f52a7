import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Layout, Menu, Tag } from 'antd';
import { FullPageSpin } from '../../components/full-page-spin';
import { opsApi, opsTokens } from './api/ops-http';
import { OpsLanguageSelect } from './ops-language';
import { mayDo, useOperator } from './ops-me';
import { OPS_DISPUTES_READ_ROLES, OPS_RUNS_READ_ROLES } from '@portal/contract';
import './ops.css';

const OperatorsPage = lazy(() => import('./operators-page'));
const MerchantsPage = lazy(() => import('./merchants-page'));
const ApprovalsPage = lazy(() => import('./approvals-page'));
const AuditPage = lazy(() => import('./audit-page'));
const SessionsPage = lazy(() => import('./sessions-page'));
const RunsPage = lazy(() => import('./runs-page'));
const NoticesPage = lazy(() => import('./notices-page'));
const RatesPage = lazy(() => import('./rates-page'));
// Issue 48: every merchant's disputes.
const DisputesPage = lazy(() => import('./disputes-page'));
// Issue 51: merchants using SSO, "SSO required" lifted with four eyes.
const OpsSsoPage = lazy(() => import('../sso/ops-sso-page'));

/** The back office's screens: a top bar (who, role, language, sign out), the menu, the screen. */
export default function OpsShell() {
  const { t } = useTranslation('ops');
  const me = useOperator();
  const location = useLocation();
  const navigate = useNavigate();
  const items = [
    { key: '/ops/merchants', label: t('menu.merchants') },
    { key: '/ops/approvals', label: t('menu.approvals') },
    { key: '/ops/notices', label: t('menu.notices') },
    { key: '/ops/audit', label: t('menu.audit') },
    ...(mayDo(me, OPS_RUNS_READ_ROLES) ? [{ key: '/ops/runs', label: t('menu.runs') }] : []),
    { key: '/ops/rates', label: t('menu.rates') },
    ...(mayDo(me, OPS_DISPUTES_READ_ROLES) ? [{ key: '/ops/disputes', label: t('menu.disputes') }] : []),
    ...(me.role === 'administrator' ? [{ key: '/ops/operators', label: t('menu.operators') }] : []),
    { key: '/ops/sessions', label: t('menu.sessions') },
    // Issue 51.
    { key: '/ops/sso', label: t('menu.sso') },
  ];
  async function signOut() {
    await opsApi.logout().catch(() => undefined);
    opsTokens.clear();
    navigate('/ops/login', { replace: true });
  }
  return (
    <Layout className="ops-shell">
      <Layout.Header className="ops-shell__header">
        <span className="ops-shell__brand">{t('brand')}</span>
        <span className="ops-shell__who">
          {me.username} <Tag>{t(`roles.${me.role}`)}</Tag>
        </span>
        <OpsLanguageSelect />
        <Button onClick={() => void signOut()}>{t('signOut')}</Button>
      </Layout.Header>
      <nav aria-label={t('menu.label')}>
        <Menu mode="horizontal" selectedKeys={[location.pathname]} items={items} onClick={(e) => navigate(e.key)} />
      </nav>
      <Layout.Content className="ops-shell__content">
        <main>
          <Suspense fallback={<FullPageSpin />}>
            <Routes>
              <Route path="merchants" element={<MerchantsPage />} />
              <Route path="approvals" element={<ApprovalsPage />} />
              <Route path="notices" element={<NoticesPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="runs" element={<RunsPage />} />
              <Route path="rates" element={<RatesPage />} />
              <Route path="disputes" element={<DisputesPage />} />
              <Route path="operators" element={<OperatorsPage />} />
              <Route path="sessions" element={<SessionsPage />} />
              {/* Issue 51. */}
              <Route path="sso" element={<OpsSsoPage />} />
              <Route path="*" element={<Navigate to="/ops/merchants" replace />} />
            </Routes>
          </Suspense>
        </main>
      </Layout.Content>
    </Layout>
  );
}
