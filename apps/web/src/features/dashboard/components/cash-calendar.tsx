import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Card, Empty, Flex, Grid, Segmented, Skeleton, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm, toDecimal, toMinor, type CashTransfer } from '@portal/contract';
import { useCan } from '../../../components/can';
import { formatAmount } from '../../../components/money';
import { proofPathOf } from '../../trail/paths';
import { useCashCalendar } from '../api/get-cash-calendar';
import { CashChart, COLORS } from './cash-chart';

const sum = (vals: string[], cur: string) =>
  toDecimal(
    vals.reduce((s, v) => s + BigInt(toMinor(v, cur)), 0n),
    cur,
  );

/**
 * Above the reserve report (beyond the spec): the next 30 days of expected transfers (decided by the
 * settlement run, and carried balances projected onto their next transfer day) and reserve
 * releases, per settlement currency; below, the scheduled transfers one by one, each opening its
 * payout proof (issue 49 §1).
 */
export function CashCalendar() {
  const { t, i18n } = useTranslation(['dashboard', 'trail']);
  const { data, isLoading } = useCashCalendar({ days: 30 });
  const [picked, setPicked] = useState<string>();
  const busiest = useMemo(() => {
    if (!data?.currencies.length) return undefined;
    const active = (c: string) => data.days.filter((d) => d.currency === c && (Number(d.transfer) || Number(d.projected) || Number(d.release))).length;
    return [...data.currencies].sort((a, b) => active(b) - active(a))[0];
  }, [data]);
  const currency = picked && data?.currencies.includes(picked) ? picked : busiest;
  const days = useMemo(() => (data && currency ? data.days.filter((d) => d.currency === currency) : []), [data, currency]);
  const transfers = useMemo(() => (data && currency ? data.transfers.filter((x) => x.currency === currency) : []), [data, currency]);
  const canProof = useCan(Perm.reportTransfer);
  // On a phone the merchant number gives way: the date, the amount and the proof link fit 390 px.
  const wide = Grid.useBreakpoint().md !== false;
  const totals = useMemo(
    () =>
      currency
        ? {
            transfer: sum(
              days.map((d) => d.transfer),
              currency,
            ),
            projected: sum(
              days.map((d) => d.projected),
              currency,
            ),
            release: sum(
              days.map((d) => d.release),
              currency,
            ),
          }
        : null,
    [days, currency],
  );
  const legend = (k: keyof typeof COLORS) => (
    <span className="cash-legend">
      <i style={{ background: COLORS[k] }} /> {t(`calendar.${k}`)}
    </span>
  );
  return (
    <Card
      variant="borderless"
      title={t('calendar.title')}
      extra={data && data.currencies.length > 1 && <Segmented aria-label={t('calendar.currency')} options={data.currencies} value={currency} onChange={(v) => setPicked(String(v))} />}
      style={{ marginBottom: 16 }}
    >
      {isLoading ? (
        <Skeleton active />
      ) : !data || !currency ? (
        <Empty description={t('calendar.empty')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
            {t('calendar.hint', { from: data.from, to: data.to })}
          </Typography.Paragraph>
          <Flex gap={40} wrap style={{ marginBottom: 8 }}>
            {(['transfer', 'projected', 'release'] as const).map((k) => (
              <Statistic key={k} title={legend(k)} value={formatAmount(totals![k], currency, i18n.language)} suffix={currency} />
            ))}
          </Flex>
          <CashChart days={days} currency={currency} />
          {transfers.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('calendar.scheduled')}
              </Typography.Title>
              <Table<CashTransfer>
                size="small"
                rowKey="id"
                dataSource={transfers}
                pagination={transfers.length > 5 ? { pageSize: 5, size: 'small', showSizeChanger: false } : false}
                scroll={{ x: 'max-content' }}
                columns={[
                  { key: 'remitDate', title: t('calendar.remitDate'), dataIndex: 'remitDate' },
                  ...(wide ? [{ key: 'merId', title: t('calendar.merchant'), dataIndex: 'merId' }] : []),
                  { key: 'amount', title: `${t('calendar.amount')} (${currency})`, align: 'right', render: (x: CashTransfer) => formatAmount(x.amount, x.currency, i18n.language) },
                  ...(canProof
                    ? [
                        {
                          key: 'proof',
                          title: t('trail:proofLink'),
                          render: (x: CashTransfer) => (
                            <Link to={proofPathOf(x.id)} aria-label={`${t('trail:proofLink')} ${x.merId} ${x.remitDate}`}>
                              {t('trail:proofLink')}
                            </Link>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            </>
          )}
        </>
      )}
    </Card>
  );
}
