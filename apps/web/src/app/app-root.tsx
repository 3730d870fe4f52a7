import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './router';
import { FullPageSpin } from '../components/full-page-spin';
import { ErrorBoundary } from './error-boundary';

/** The router alone: antd's providers wrap the routes that use antd (router.tsx), not sign-in. */
export function AppRoot() {
  return (
    <ErrorBoundary scope="app">
      <BrowserRouter>
        <Suspense fallback={<FullPageSpin />}>
          <AppRoutes />
        </Suspense>
      </BrowserRouter>
    </ErrorBoundary>
  );
}
