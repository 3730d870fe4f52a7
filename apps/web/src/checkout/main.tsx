import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CheckoutApp } from './checkout-app';
import { StoreCheckoutApp } from './store-checkout-app';
import { CashierApp } from './cashier-app';
import { browserLang } from './i18n';
import './checkout.css';

/** The hosted checkout's entry (pay.html): /pay/{token} is an order, /pay/store/{token} a store's static QR. */
const store = location.pathname.startsWith('/pay/store/');
const token = decodeURIComponent(location.pathname.replace(store ? /^\/pay\/store\// : /^\/pay\//, '').split('/')[0] ?? '');

createRoot(document.getElementById('checkout')!).render(
  <StrictMode>
    {location.pathname.replace(/\/+$/, '') === '/pay/cashier' ? (
      <CashierApp initialLang={browserLang()} />
    ) : store ? (
      <StoreCheckoutApp token={token} initialLang={browserLang()} />
    ) : (
      <CheckoutApp token={token} initialLang={browserLang()} />
    )}
  </StrictMode>,
);
