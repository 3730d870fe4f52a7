import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { RouterItem } from '@portal/contract';
import { flattenRouters, hasAny, pageRouters } from '../../lib/permissions';
import { featureRoutes } from '../feature-routes';
import { FullPageSpin } from '../../components/full-page-spin';
import { ErrorBoundary } from '../error-boundary';

// The 404 (antd's Result and its illustration) loads only when a path is unknown.
const NotFoundResult = lazy(() => import('../../features/errors/not-found-result').then((m) => ({ default: m.NotFoundResult })));
const NoAccessResult = lazy(() => import('../../features/errors/no-access-result').then((m) => ({ default: m.NoAccessResult })));

interface ShellRoute {
  path: string;
  Screen?: ComponentType;
  redirect?: string;
  /** A registered screen the user holds no permission for: "no access", who grants it (issue 29 §7). */
  denied?: true;
}

/**
 * The routes of the signed-in shell ("the server's routes added", spec §4): registered screens
 * the user may open, menu groups → their first page, / → /dashboard (or the first page when the
 * dashboard is not granted), a registered screen without the permission → "no access" and who
 * can grant it, else 404 (also a server route without a registered screen).
 */
function buildShellRoutes(routers: RouterItem[], permissions: readonly string[]): ShellRoute[] {
  const out: ShellRoute[] = featureRoutes.filter((r) => hasAny(permissions, r.permission)).map((r) => ({ path: r.path, Screen: r.element }));
  for (const group of flattenRouters(routers)) {
    const first = group.children?.find((c) => !c.hidden && !c.children?.length);
    if (first) out.push({ path: group.path, redirect: first.path });
  }
  const pages = out.filter((r) => r.Screen);
  const home = pages.some((r) => r.path === '/dashboard') ? '/dashboard' : pageRouters(routers).find((r) => !r.hidden)?.path;
  if (home) out.push({ path: '/', redirect: home });
  for (const r of featureRoutes) if (!hasAny(permissions, r.permission)) out.push({ path: r.path, denied: true });
  return out;
}

export function ShellRoutes({ routers, permissions }: { routers: RouterItem[]; permissions: readonly string[] }) {
  const routes = useMemo(() => buildShellRoutes(routers, permissions), [routers, permissions]);
  // One boundary per screen, keyed by its path: another screen starts afresh, the menu stays usable.
  const { pathname } = useLocation();
  return (
    <ErrorBoundary key={pathname} scope="screen">
      <Suspense fallback={<FullPageSpin />}>
        <Routes>
          {routes.map(({ path, Screen, redirect, denied }) => (
            <Route key={path} path={path} element={denied ? <NoAccessResult /> : Screen ? <Screen /> : <Navigate to={redirect!} replace />} />
          ))}
          <Route path="*" element={<NotFoundResult />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
