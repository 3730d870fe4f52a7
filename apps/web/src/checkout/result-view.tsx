import type { CheckoutOrder } from '@portal/contract';
import { formatAmount, formatTime, useI18n } from './i18n';

export type Outcome = 'success' | 'failed' | 'pending' | 'closed' | 'expired' | 'notFound';

const ICON: Record<Outcome, string> = { success: '✓', failed: '✕', pending: '…', closed: '—', expired: '⌛', notFound: '?' };

/** The end states of the page: paid, failed, processing (updates itself), closed, expired, unknown link. */
export function ResultView({ outcome, order }: { outcome: Outcome; order: CheckoutOrder | null }) {
  const { t, lang } = useI18n();
  const vars = {
    merchant: order?.merName ?? '',
    amount: order ? formatAmount(order.totalAmount, order.orderCurrency, lang) : '',
    reason: order?.payment?.respMsg ?? '',
  };
  return (
    <section className={`co-card co-result co-result--${outcome}`} role="status" data-testid="co-result">
      <div className={`co-result__icon${outcome === 'pending' ? ' co-spin' : ''}`} aria-hidden>
        {ICON[outcome]}
      </div>
      <h1 className="co-result__title">{t(`${outcome}.title`)}</h1>
      <p>{t(`${outcome}.text`, vars)}</p>
      {outcome === 'success' && order?.payment && <p className="co-muted co-small">{t('paidAt', { time: formatTime(order.payment.time, lang) })}</p>}
    </section>
  );
}
