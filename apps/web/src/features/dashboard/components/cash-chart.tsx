import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CashDay } from '@portal/contract';
import { formatAmount } from '../../../components/money';
import { dayjs } from '../../../lib/time';

const W = 960;
const H = 240;
const PAD = { l: 72, r: 12, t: 12, b: 30 };
export const COLORS = { transfer: '#1f5fd6', projected: '#8db4f5', release: '#12a37a' } as const;

/** Ticks of a 0…max axis at round values. */
function ticks(max: number): number[] {
  if (max <= 0) return [0];
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 0.001; v += step) out.push(v);
  if (out[out.length - 1] < max) out.push(out[out.length - 1] + step);
  return out;
}

/**
 * The cash calendar's chart for one currency: per day, the transfer (decided, then projected,
 * stacked) beside the reserve release; weekends shaded; hover shows the day's figures.
 */
export function CashChart({ days, currency }: { days: CashDay[]; currency: string }) {
  const { t, i18n } = useTranslation('dashboard');
  const n = Number;
  const max = Math.max(0, ...days.map((d) => Math.max(n(d.transfer) + n(d.projected), n(d.release))));
  const axis = ticks(max);
  const top = axis[axis.length - 1] || 1;
  const plotW = W - PAD.l - PAD.r;
  const plotH = H - PAD.t - PAD.b;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.max(2, (slot - 4) / 2);
  const y = (v: number) => PAD.t + plotH - (v / top) * plotH;
  const compact = new Intl.NumberFormat(i18n.language, { notation: 'compact', maximumFractionDigits: 1 });
  const fmt = (v: string) => `${formatAmount(v, currency, i18n.language)} ${currency}`;
  // On a phone the chart keeps its drawn size (its 11 px figures were 4 px at 390 px, issue 53) and
  // scrolls sideways in its own frame, which the keyboard can reach and scroll too.
  return (
    <div className="cash-chart-scroll" data-testid="cash-chart-scroll" tabIndex={0} role="group" aria-label={t('calendar.chartLabel', { currency })}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={t('calendar.chartLabel', { currency })} className="cash-chart">
        {axis.map((v) => (
          <g key={v}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(v)} y2={y(v)} stroke={v === 0 ? '#8c8c8c' : '#eef0f3'} />
            <text x={PAD.l - 8} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#6b7280">
              {compact.format(v)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.l + i * slot;
          const date = dayjs(d.date);
          const weekend = date.day() === 0 || date.day() === 6;
          const tr = n(d.transfer);
          const pr = n(d.projected);
          const rel = n(d.release);
          return (
            <Tooltip
              key={d.date}
              title={
                <div>
                  <strong>{d.date}</strong>
                  <div>
                    {t('calendar.transfer')}: {fmt(d.transfer)}
                  </div>
                  <div>
                    {t('calendar.projected')}: {fmt(d.projected)}
                  </div>
                  <div>
                    {t('calendar.release')}: {fmt(d.release)}
                  </div>
                </div>
              }
            >
              <g data-testid={`cash-day-${d.date}`}>
                <rect x={x} y={PAD.t} width={slot} height={plotH} fill={weekend ? '#f6f7f9' : 'transparent'} />
                {tr > 0 && <rect x={x + 2} y={y(tr)} width={bar} height={y(0) - y(tr)} fill={COLORS.transfer} rx={1.5} />}
                {pr > 0 && <rect x={x + 2} y={y(tr + pr)} width={bar} height={y(tr) - y(tr + pr)} fill={COLORS.projected} rx={1.5} />}
                {rel > 0 && <rect x={x + 2 + bar} y={y(rel)} width={bar} height={y(0) - y(rel)} fill={COLORS.release} rx={1.5} />}
                {(i % 5 === 0 || i === days.length - 1) && (
                  <text x={x + slot / 2} y={H - 10} textAnchor="middle" fontSize="11" fill="#6b7280">
                    {date.format('MM-DD')}
                  </text>
                )}
              </g>
            </Tooltip>
          );
        })}
      </svg>
    </div>
  );
}
