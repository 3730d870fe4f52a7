import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { StoreCheckout } from '@portal/contract';
import { CheckoutError, loadStore, orderAtStore } from './api';
import { I18nContext, translator, type Lang } from './i18n';
import { CheckoutHeader } from './checkout-header';

/**
 * A store's static QR (/pay/store/{token}): the buyer sees the merchant and the store, enters the
 * amount, and goes on to the hosted checkout of the in-store order made for it.
 */
export function StoreCheckoutApp({ token, initialLang }: { token: string; initialLang: Lang }) {
  const [lang, setLang] = useState<Lang>(initialLang);
  const t = useMemo(() => translator(lang), [lang]);
  const [store, setStore] = useState<StoreCheckout | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [currency, setCurrency] = useState('');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = `${t('storeTitle')}${store ? ` · ${store.storeName}` : ''}`;
  }, [lang, t, store]);
  useEffect(() => {
    loadStore(token, lang).then(
      (s) => {
        setStore(s);
        setCurrency((c) => c || s.currencies[0] || '');
      },
      (e: CheckoutError) => setFailure(e.code === 404 ? t('storeNotFound') : e.message || t('error')),
    );
  }, [token, lang, t]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = amount.trim();
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) return setProblem(t('amountInvalid'));
    setProblem(null);
    setBusy(true);
    try {
      const o = await orderAtStore(token, lang, currency, v);
      location.assign(o.link);
    } catch (err) {
      setProblem((err as Error).message || t('error'));
      setBusy(false);
    }
  };

  return (
    <I18nContext.Provider value={{ lang, t }}>
      <div className="co-page">
        <CheckoutHeader title={t('secure')} lang={lang} onLang={setLang} languageLabel={t('language')} />
        <main className="co-main">
          {failure && <p className="co-card co-error">{failure}</p>}
          {!store && !failure && <p className="co-muted">{t('loading')}</p>}
          {store && (
            <>
              <h1 className="co-merchant" data-testid="co-merchant">
                {store.merName}
              </h1>
              <p className="co-muted" style={{ textAlign: 'center', margin: '4px 0 16px' }} data-testid="co-store">
                {store.storeName}
              </p>
              <form className="co-card" onSubmit={submit} noValidate>
                <h2 className="co-card__title">{t('storeTitle')}</h2>
                <div className="co-field">
                  <label htmlFor="co-currency">{t('currency')}</label>
                  <select id="co-currency" value={currency} onChange={(e) => setCurrency(e.target.value)} style={{ fontSize: 17, padding: '10px 12px', borderRadius: 8 }}>
                    {store.currencies.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="co-field">
                  <label htmlFor="co-amount">{t('enterAmount')}</label>
                  <input id="co-amount" inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, ''))} />
                </div>
                {problem && (
                  <p className="co-error" role="alert">
                    {problem}
                  </p>
                )}
                <button className="co-button co-button--primary" type="submit" disabled={busy}>
                  {t('continue')}
                </button>
              </form>
              <div className="co-methods" aria-hidden>
                {store.methods.map((m) => (
                  <img key={m.code} src={m.logo} alt="" width={80} height={32} style={{ justifySelf: 'center' }} />
                ))}
              </div>
              <p className="co-footnote">{t('sandbox')}</p>
            </>
          )}
        </main>
      </div>
    </I18nContext.Provider>
  );
}
