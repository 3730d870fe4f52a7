import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import type { Locale } from 'antd/es/locale';
import { Providers } from './providers';
import { AppRoutes } from './router';
import { FullPageSpin } from '../components/full-page-spin';

export function AppRoot({ antdLocale }: { antdLocale: Locale }) {
  return (
    <Providers antdLocale={antdLocale}>
      <BrowserRouter>
        <Suspense fallback={<FullPageSpin />}>
          <AppRoutes />
        </Suspense>
      </BrowserRouter>
    </Providers>
  );
}
