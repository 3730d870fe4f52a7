import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CashierMe, PayInStoreRow } from '@portal/contract';
import { CASHIER_WECHAT_LOGIN, CheckoutError, cashierLogout, cashierMe, cashierOrders } from './api';
import { I18nContext, formatAmount, translator, type Lang } from './i18n';
import { CheckoutHeader } from './checkout-header';

const REFRESH_MS = 5000;

/**
 * The cashier view (/pay/cashier): a cashier bound to a store through WeChat sees that store's
 * in-store orders as they come in — nothing else of the portal (decision 018).
 */
export function CashierApp({ initialLang }: { initialLang: Lang }) {
  const [lang, setLang] = useState<Lang>(initialLang);
  const t = useMemo(() => translator(lang), [lang]);
  const [me, setMe] = useState<CashierMe | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const [orders, setOrders] = useState<PayInStoreRow[]>([]);
  const notice = new URLSearchParams(location.search).get('wechat');

  const load = useCallback(async () => {
    try {
      const m = await cashierMe(lang);
      setMe(m);
      setOrders((await cashierOrders(lang)).content);
    } catch (e) {
      if (e instanceof CheckoutError && e.code === -1) {
        setMe(null);
        setSignedOut(true);
      }
    }
  }, [lang]);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t('cashier.title');
  }, [lang, t]);
  useEffect(() => {
    // oxlint-disable-next-line react/set-state-in-effect -- loading (and refreshing) the cashier's orders is what this effect is for
    void load();
    const id = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(id);
  }, [load]);

  const logout = async () => {
    await cashierLogout(lang).catch(() => undefined);
    setMe(null);
    setSignedOut(true);
  };
  const state = (o: PayInStoreRow) => (o.status === '00' ? 'paid' : o.openStatus === '00' ? 'processing' : o.status === '01' ? 'closed' : 'notPaid');

  return (
    <I18nContext.Provider value={{ lang, t }}>
      <div className="co-page">
        <CheckoutHeader title={t('cashier.title')} lang={lang} onLang={setLang} languageLabel={t('language')} />
        <main className="co-main">
          {!me && signedOut && (
            <div className="co-card" style={{ textAlign: 'center' }}>
              {notice && (
                <p className="co-error" role="alert">
                  {t(notice === 'not-bound' ? 'cashier.notBound' : 'cashier.failed')}
                </p>
              )}
              <p>{t('cashier.signInText')}</p>
              <a className="co-button co-button--primary" href={CASHIER_WECHAT_LOGIN} style={{ textDecoration: 'none' }}>
                {t('cashier.signIn')}
              </a>
            </div>
          )}
          {!me && !signedOut && <p className="co-muted">{t('loading')}</p>}
          {me && (
            <>
              <h1 className="co-merchant" data-testid="cashier-store">
                {me.storeName}
              </h1>
              <p className="co-muted" style={{ textAlign: 'center', margin: '4px 0 16px' }}>
                {me.merName} · {t('cashier.signedInAs', { name: me.wechatName })}
              </p>
              <section className="co-card" aria-label={t('cashier.orders')}>
                <h2 className="co-card__title">{t('cashier.orders')}</h2>
                {orders.length === 0 && <p className="co-muted">{t('cashier.none')}</p>}
                <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="cashier-orders">
                  {orders.map((o) => (
                    <li key={o.id} style={{ display: 'flex', justifyContent: 'space-between', gap: 8, padding: '8px 0', borderBottom: '1px solid var(--co-line)' }}>
                      <span>
                        <strong>{formatAmount(o.totalAmount, o.orderCurrency, lang)}</strong>
                        <br />
                        <small className="co-muted">
                          {o.createTime.slice(5, 16)} · {o.orderno}
                        </small>
                      </span>
                      <span className={state(o) === 'paid' ? 'co-ok' : 'co-muted'} style={{ whiteSpace: 'nowrap' }}>
                        {t(`cashier.state.${state(o)}`)}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
              <button className="co-button" type="button" onClick={() => void logout()}>
                {t('cashier.logout')}
              </button>
            </>
          )}
        </main>
      </div>
    </I18nContext.Provider>
  );
}
