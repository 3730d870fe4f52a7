import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './lib/i18n';
import { loadLocales } from './lib/locale';
import { AppRoot } from './app/app-root';
import './app/global.css';

const lng = initialLanguage();
const [, antdLocale] = await Promise.all([initI18n(lng), loadLocales(lng)]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot antdLocale={antdLocale} />
  </StrictMode>,
);
