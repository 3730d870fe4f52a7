import { useState, type FormEvent } from 'react';
import type { CheckoutOrder } from '@portal/contract';
import { formatAmount, useI18n } from './i18n';

const luhn = (n: string) => {
  if (!/^\d{12,19}$/.test(n)) return false;
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};
const groupCard = (v: string) =>
  v
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** The payment methods of the link's currency (logos), a card number for card methods, and Pay. */
export function PaymentForm({ order, busy, error, onPay }: { order: CheckoutOrder; busy: boolean; error: string | null; onPay: (method: string, card?: string) => void }) {
  const { t, lang } = useI18n();
  const [method, setMethod] = useState<string>(order.methods[0]?.code ?? '');
  const [card, setCard] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = order.methods.find((m) => m.code === method);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return setProblem(t('chooseMethod'));
    const digits = card.replace(/\D/g, '');
    if (chosen.card && !luhn(digits)) return setProblem(t('cardInvalid'));
    setProblem(null);
    onPay(chosen.code, chosen.card ? digits : undefined);
  };

  if (!order.methods.length) return <p className="co-card co-error">{t('noMethods')}</p>;
  return (
    <form className="co-card" onSubmit={submit} noValidate>
      <h2 className="co-card__title">{t('method')}</h2>
      <div className="co-methods" role="radiogroup" aria-label={t('method')}>
        {order.methods.map((m) => (
          <label key={m.code} className={`co-method${m.code === method ? ' co-method--on' : ''}`}>
            <input type="radio" name="method" value={m.code} checked={m.code === method} onChange={() => setMethod(m.code)} aria-label={m.name} />
            <img src={m.logo} alt="" width={80} height={32} />
            <span>{m.name}</span>
          </label>
        ))}
      </div>
      {chosen?.card && (
        <div className="co-field">
          <label htmlFor="co-card">{t('cardNumber')}</label>
          <input id="co-card" inputMode="numeric" autoComplete="cc-number" placeholder="4111 1111 1111 1111" value={card} onChange={(e) => setCard(groupCard(e.target.value))} />
          <small className="co-muted">{t('cardHint')}</small>
        </div>
      )}
      {(problem || error) && (
        <p className="co-error" role="alert">
          {problem ?? error}
        </p>
      )}
      <button type="submit" className="co-button co-button--primary" disabled={busy}>
        {busy ? t('paying') : t('pay', { amount: formatAmount(order.totalAmount, order.orderCurrency, lang) })}
      </button>
    </form>
  );
}
