import type { CheckoutOrder } from '@portal/contract';
import { formatAmount, formatTime, useI18n } from './i18n';

/** Goods, unit price × quantity, shipping, total, invoice and order number, and the link's validity. */
export function OrderSummary({ order }: { order: CheckoutOrder }) {
  const { t, lang } = useI18n();
  const money = (v: string) => formatAmount(v, order.orderCurrency, lang);
  const payable = order.status === '04' && order.openStatus === '02';
  return (
    <section className="co-card" aria-label={t('summary')}>
      <h2 className="co-card__title">{t('summary')}</h2>
      <dl className="co-lines">
        <div>
          <dt>{t('goods')}</dt>
          <dd data-testid="co-goods">{order.goodsName}</dd>
        </div>
        {/* Lines that add up: unit price × quantity = subtotal, + shipping = total (an order stored before that rule shows its total alone). */}
        {order.linesAddUp && (
          <div>
            <dt>{t('unitPrice')}</dt>
            <dd data-testid="co-subtotal">
              {money(order.goodsPrice)} × {order.goodsQuantity} = {money(order.subtotal)}
            </dd>
          </div>
        )}
        {order.linesAddUp && Number(order.logFee) > 0 && (
          <div>
            <dt>{t('shipping')}</dt>
            <dd>{money(order.logFee)}</dd>
          </div>
        )}
        <div className="co-lines__total">
          <dt>{t('total')}</dt>
          <dd>{money(order.totalAmount)}</dd>
        </div>
        {order.storeName ? (
          <div className="co-lines__meta">
            <dt>{t('store')}</dt>
            <dd data-testid="co-store">{order.storeName}</dd>
          </div>
        ) : (
          <div className="co-lines__meta">
            <dt>{t('invoice')}</dt>
            <dd>{order.reconId}</dd>
          </div>
        )}
        <div className="co-lines__meta">
          <dt>{t('orderNo')}</dt>
          <dd>{order.orderno}</dd>
        </div>
      </dl>
      {order.remarks && (
        <p className="co-remarks">
          <strong>{t('remarks')}:</strong> {order.remarks}
        </p>
      )}
      {payable && <p className="co-muted co-small">{t('validUntil', { time: formatTime(order.expireTime, lang) })}</p>}
    </section>
  );
}
