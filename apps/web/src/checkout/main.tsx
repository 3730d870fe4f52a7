import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CheckoutApp } from './checkout-app';
import { browserLang } from './i18n';
import './checkout.css';

/** The hosted checkout's entry (pay.html): the token is the last part of /pay/{token}. */
const token = decodeURIComponent(location.pathname.replace(/^\/pay\//, '').split('/')[0] ?? '');

createRoot(document.getElementById('checkout')!).render(
  <StrictMode>
    <CheckoutApp token={token} initialLang={browserLang()} />
  </StrictMode>,
);
