import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CheckoutOrder } from '@portal/contract';
import { CheckoutError, loadOrder, pay } from './api';
import { I18nContext, formatAmount, translator, type Lang } from './i18n';
import { CheckoutHeader } from './checkout-header';
import { OrderSummary } from './order-summary';
import { PaymentForm } from './payment-form';
import { ResultView, type Outcome } from './result-view';

const POLL_MS = 3000;

/** What the page shows for an order's state (or the lack of one). */
function outcomeOf(o: CheckoutOrder | null, notFound: boolean): Outcome | null {
  if (notFound) return 'notFound';
  if (!o) return null;
  if (o.status === '00') return 'success';
  if (o.openStatus === '00') return 'pending';
  if (o.status === '01') return o.closeReason === 'failed' ? 'failed' : o.closeReason === 'expired' ? 'expired' : 'closed';
  return null;
}

/**
 * The hosted checkout at /pay/{token}: merchant, goods and amount, the payment methods of the
 * link's currency, payment through the sandbox acquirer, and the result. A processing payment is
 * followed every 3 s until it is final.
 */
export function CheckoutApp({ token, initialLang }: { token: string; initialLang: Lang }) {
  const [lang, setLang] = useState<Lang>(initialLang);
  const t = useMemo(() => translator(lang), [lang]);
  const [order, setOrder] = useState<CheckoutOrder | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [loadError, setLoadError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);

  const load = useCallback(
    async (quiet: boolean) => {
      try {
        setOrder(await loadOrder(token, lang, quiet));
        setLoadError(false);
      } catch (e) {
        if (e instanceof CheckoutError && e.code === 404) setNotFound(true);
        else setLoadError(true);
      }
    },
    [token, lang],
  );

  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = `${t('title')}${order ? ` · ${order.merName}` : ''}`;
  }, [lang, t, order]);
  useEffect(() => {
    // oxlint-disable-next-line react/set-state-in-effect -- loading the order from the server is what this effect is for
    void load(false);
  }, [load]);

  const outcome = outcomeOf(order, notFound);
  useEffect(() => {
    if (outcome !== 'pending') return;
    const id = setInterval(() => void load(true), POLL_MS);
    return () => clearInterval(id);
  }, [outcome, load]);

  const submit = async (method: string, cardNumber?: string) => {
    setBusy(true);
    setPayError(null);
    try {
      await pay(token, lang, method, cardNumber);
    } catch (e) {
      setPayError((e as Error).message || t('error'));
    } finally {
      setBusy(false);
      await load(true);
    }
  };

  return (
    <I18nContext.Provider value={{ lang, t }}>
      <div className="co-page">
        <CheckoutHeader title={t('secure')} lock lang={lang} onLang={setLang} languageLabel={t('language')} />
        <main className="co-main">
          {!order && !notFound && !loadError && <p className="co-muted">{t('loading')}</p>}
          {loadError && !order && (
            <div className="co-card">
              <p>{t('error')}</p>
              <button className="co-button" onClick={() => void load(false)}>
                {t('retry')}
              </button>
            </div>
          )}
          {outcome && <ResultView outcome={outcome} order={order} />}
          {order && !outcome && (
            <>
              <h1 className="co-merchant" data-testid="co-merchant">
                {order.merName}
              </h1>
              <p className="co-amount" data-testid="co-amount">
                {formatAmount(order.totalAmount, order.orderCurrency, lang)}
              </p>
              <OrderSummary order={order} />
              <PaymentForm order={order} busy={busy} error={payError} onPay={submit} />
              <p className="co-footnote">{t('sandbox')}</p>
            </>
          )}
          {order && outcome && outcome !== 'notFound' && <OrderSummary order={order} />}
        </main>
      </div>
    </I18nContext.Provider>
  );
}
