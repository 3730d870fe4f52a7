import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { brandName, LIMITS, Perm, resultStateOf, type Takings, type TxnRow } from '@portal/contract';
import { formatAmount } from '../../components/money';
import { useSession } from '../../lib/session';
import { displayZone, formatPlatform, zoneOffsetLabel } from '../../lib/time';
import { addDays, dayInZone, dayLabel, dayRange } from './phone-dates';
import { firstFigures, getLatestPayments, getTakings } from './api';
import { chooseFullPortal } from './phone-route';
import { registerServiceWorker } from './register-sw';
import './phone-home.css';

/** The in-store order flow (antd's dialogs and the QR): loaded on the first press of the button only. */
const PhoneOrder = lazy(() => import('./phone-order'));

type Figure = { currency: string; count: number; amount: string };

/** Amounts of one currency, one per line: '¥1,234.50 CNY'. */
function Amount({ value, currency, lang, big }: { value: string; currency: string; lang: string; big?: boolean }) {
  return (
    <span className={`ph-amount${big ? ' ph-amount--big' : ''}`}>
      {formatAmount(value, currency, lang)}
      <span className="ph-amount__cur"> {currency}</span>
    </span>
  );
}

/** Rows of a breakdown (per store or per brand): name, number of payments, amount. */
function Breakdown({ title, rows, lang, empty, testId }: { title: string; rows: { key: string; name: string; f: Figure }[]; lang: string; empty: string; testId: string }) {
  const { t } = useTranslation('phone');
  return (
    <section className="ph-card" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`} className="ph-card__title">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="ph-muted">{empty}</p>
      ) : (
        <ul className="ph-rows">
          {rows.map((r) => (
            <li key={r.key} className="ph-row" data-testid={`${testId}-row`}>
              <span className="ph-row__name">
                {r.name}
                <span className="ph-row__sub">{t('payments', { count: r.f.count })}</span>
              </span>
              <Amount value={r.f.amount} currency={r.f.currency} lang={lang} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Yesterday against the same weekday a week before, per currency (either day may lack a currency). */
function Compare({ yesterday, lastWeek, day, lang }: { yesterday: Takings; lastWeek: Takings; day: string; lang: string }) {
  const { t } = useTranslation('phone');
  const currencies = [...new Set([...yesterday.totals, ...lastWeek.totals].map((x) => x.currency))].sort();
  const weekday = dayLabel(addDays(day, -1), lang, { weekday: 'long' });
  const pct = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
  return (
    <section className="ph-card" aria-labelledby="ph-compare-title" data-testid="ph-compare">
      <h2 id="ph-compare-title" className="ph-card__title">
        {t('compare.title', { weekday })}
      </h2>
      {currencies.length === 0 ? (
        <p className="ph-muted">{t('compare.none')}</p>
      ) : (
        <table className="ph-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('compare.currency')}</span>
              </th>
              <th scope="col">{t('compare.yesterday')}</th>
              <th scope="col">{t('compare.lastWeek', { weekday })}</th>
              <th scope="col">{t('compare.change')}</th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((c) => {
              const y = yesterday.totals.find((x) => x.currency === c)?.amount ?? '0';
              const w = lastWeek.totals.find((x) => x.currency === c)?.amount ?? '0';
              const change = Number(w) === 0 ? null : (Number(y) - Number(w)) / Math.abs(Number(w));
              return (
                <tr key={c} data-testid="ph-compare-row">
                  <th scope="row">{c}</th>
                  <td data-testid="ph-compare-yesterday">{formatAmount(y, c, lang)}</td>
                  <td data-testid="ph-compare-lastweek">{formatAmount(w, c, lang)}</td>
                  <td className={change === null ? '' : change >= 0 ? 'ph-up' : 'ph-down'}>{change === null ? '—' : pct.format(change)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The time of a payment in the user's zone ('14:05'), from the wire's platform-zone time. */
const timeOf = (wire: string) => formatPlatform(wire).slice(11, 16);

/**
 * /m, the phone home screen (issue 29, decision 042): today's takings per store and brand, the
 * latest payments as they arrive (polled every 3 s while the page is shown, as the QR dialog
 * polls), a big "new in-store order" button with its QR, and yesterday against the same weekday
 * last week. Plain React and CSS (no antd before the button is pressed); the same API and
 * permissions as the full portal: a section the user may not see is not drawn.
 */
export default function PhoneHome() {
  const { t, i18n } = useTranslation('phone');
  const lang = i18n.language;
  const { user } = useSession();
  const perms = user?.permissions ?? [];
  const canSee = perms.includes(Perm.txnList);
  const canOrder = perms.includes(Perm.payInStoreCreate);
  const [day, setDay] = useState(() => dayInZone());
  const today = useMemo(() => dayRange(day), [day]);
  const [takings, setTakings] = useState<Takings | null>(null);
  const [compare, setCompare] = useState<{ yesterday: Takings; lastWeek: Takings } | null>(null);
  const [payments, setPayments] = useState<TxnRow[] | null>(null);
  const [arrived, setArrived] = useState<ReadonlySet<number>>(new Set());
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine);
  const [orders, setOrders] = useState(0);
  const seen = useRef<{ day: string; ids: Set<number>; sig: string } | null>(null);

  useEffect(() => registerServiceWorker(), []);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);

  const sign = (rows: TxnRow[]) => rows.map((r) => `${r.id}:${r.gwResponse ?? ''}`).join(',');
  const loadTakings = useCallback((quiet: boolean) => getTakings(today, quiet).then(setTakings, () => undefined), [today]);

  // Today's takings and latest payments, together (one render; started beside the session's
  // first call when /m is opened, api.ts).
  useEffect(() => {
    if (!canSee) return;
    let stop = false;
    firstFigures(today).then(
      ([tk, page]) => {
        if (stop) return;
        seen.current = { day, ids: new Set(page.content.map((r) => r.id)), sig: sign(page.content) };
        // A transition: React renders the figures in slices, yielding to the browser (no long task).
        startTransition(() => {
          setTakings(tk);
          setPayments(page.content);
        });
      },
      () => undefined,
    );
    return () => {
      stop = true;
    };
  }, [canSee, day, today]);

  // Yesterday against the same weekday last week: once today's figures are shown, once per day.
  const ready = takings !== null && payments !== null;
  useEffect(() => {
    if (!canSee || !ready) return;
    Promise.all([getTakings(dayRange(addDays(day, -1)), true), getTakings(dayRange(addDays(day, -8)), true)]).then(
      ([yesterday, lastWeek]) => startTransition(() => setCompare({ yesterday, lastWeek })),
      () => undefined,
    );
  }, [canSee, day, ready]);

  // Every 3 s while the page is shown: the latest payments. A new payment (or a changed result)
  // reloads the takings and is marked as just arrived; past midnight the day moves on.
  useEffect(() => {
    if (!canSee) return;
    let stop = false;
    const poll = async () => {
      if (document.visibilityState === 'hidden') return;
      const now = dayInZone();
      if (now !== day) {
        setDay(now);
        return;
      }
      try {
        const page = await getLatestPayments(today);
        if (stop) return;
        const rows = page.content;
        const sig = sign(rows);
        const before = seen.current?.day === day ? seen.current : null;
        if (before?.sig === sig) return; // nothing new: no render
        if (before) {
          const fresh = rows.filter((r) => !before.ids.has(r.id)).map((r) => r.id);
          if (fresh.length) setArrived(new Set(fresh));
        }
        // New rows, or the first figures failed: the takings again.
        void loadTakings(true);
        seen.current = { day, ids: new Set(rows.map((r) => r.id)), sig };
        setPayments(rows);
      } catch {
        /* the next poll tries again */
      }
    };
    const timer = setInterval(() => void poll(), LIMITS.qrPollMs);
    const onShow = () => void poll();
    document.addEventListener('visibilitychange', onShow);
    return () => {
      stop = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onShow);
    };
  }, [canSee, day, today, loadTakings]);

  // The figures appear together (ready), once today's takings and payments are in: nothing on the
  // screen moves when one of them arrives before the other (Lighthouse's layout shift).
  const zone = displayZone();
  const storeRows = (takings?.stores ?? []).map((s) => ({ key: `${s.storeId ?? '-'}:${s.currency}`, name: s.storeName ?? s.storeId ?? t('noStore'), f: s }));
  const brandRows = (takings?.brands ?? []).map((b) => ({ key: `${b.brand ?? '-'}:${b.currency}`, name: b.brand ? brandName(b.brand) : t('noBrand'), f: b }));

  return (
    <div className="ph-screen">
      <header className="ph-top">
        <div className="ph-top__who">
          <span className="ph-top__merchant">{user?.merName ?? ''}</span>
          <span className="ph-top__user">{user?.username ?? ''}</span>
        </div>
        <Link className="ph-top__full" to="/" onClick={chooseFullPortal}>
          {t('fullPortal')}
        </Link>
      </header>
      <main className="ph-main" id="main">
        <h1 className="ph-title">
          {t('today')}
          <span className="ph-title__day">
            {dayLabel(day, lang)} · {zoneOffsetLabel(zone)}
          </span>
        </h1>
        {!online && (
          <p className="ph-offline" role="status" data-testid="ph-offline">
            {t('offline')}
          </p>
        )}
        {canOrder && (
          <button type="button" className="ph-order" onClick={() => setOrders((n) => n + 1)} data-testid="ph-new-order">
            <span aria-hidden="true" className="ph-order__plus">
              +
            </span>
            {t('newOrder')}
          </button>
        )}
        {!canSee && !canOrder && <p className="ph-card ph-muted">{t('nothing')}</p>}
        {canSee && !ready && (
          <p className="ph-card ph-muted" role="status" data-testid="ph-loading">
            {t('loading')}
          </p>
        )}
        {canSee && ready && (
          <>
            <section className="ph-card ph-card--total" aria-labelledby="ph-total-title" data-testid="ph-total">
              <h2 id="ph-total-title" className="ph-card__title">
                {t('takings')}
              </h2>
              {!takings ? (
                <p className="ph-muted" role="status">
                  {t('loading')}
                </p>
              ) : takings.totals.length === 0 ? (
                <p className="ph-muted">{t('noneToday')}</p>
              ) : (
                <ul className="ph-rows">
                  {takings.totals.map((x) => (
                    <li key={x.currency} className="ph-row" data-testid="ph-total-row">
                      <Amount value={x.amount} currency={x.currency} lang={lang} big />
                      <span className="ph-row__sub">{t('payments', { count: x.count })}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="ph-card" aria-labelledby="ph-latest-title" data-testid="ph-latest">
              <h2 id="ph-latest-title" className="ph-card__title">
                {t('latest')}
                <span className="ph-live" aria-hidden="true" />
              </h2>
              <div aria-live="polite" aria-relevant="additions">
                {payments === null ? (
                  <p className="ph-muted">{t('loading')}</p>
                ) : payments.length === 0 ? (
                  <p className="ph-muted">{t('noPayments')}</p>
                ) : (
                  <ul className="ph-rows">
                    {payments.map((p) => {
                      const state = resultStateOf(p.gwResponse);
                      return (
                        <li key={p.id} className={`ph-row${arrived.has(p.id) ? ' ph-row--new' : ''}`} data-testid="ph-payment">
                          <span className="ph-row__name">
                            <span className="ph-row__time">{timeOf(p.currentTime)}</span> {p.paymentBrand ? brandName(p.paymentBrand) : t('noBrand')}
                            <span className="ph-row__sub">
                              {p.merName}
                              {arrived.has(p.id) && <span className="ph-badge">{t('new')}</span>}
                            </span>
                          </span>
                          <span className="ph-row__end">
                            <Amount value={p.gwAmount} currency={p.gwCurrency} lang={lang} />
                            <span className={`ph-state ph-state--${state}`}>{t(`state.${state}`)}</span>
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </div>
            </section>
            <Breakdown title={t('byStore')} rows={storeRows} lang={lang} empty={t('noneToday')} testId="ph-stores" />
            <Breakdown title={t('byBrand')} rows={brandRows} lang={lang} empty={t('noneToday')} testId="ph-brands" />
            {compare && <Compare yesterday={compare.yesterday} lastWeek={compare.lastWeek} day={day} lang={lang} />}
          </>
        )}
      </main>
      {orders > 0 && (
        <Suspense fallback={null}>
          <PhoneOrder request={orders} />
        </Suspense>
      )}
    </div>
  );
}
