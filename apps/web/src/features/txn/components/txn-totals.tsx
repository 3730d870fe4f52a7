import { Flex, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../components/money';
import type { TxnWireQuery } from '../api/get-txn-list';
import { useTxnTotals } from '../api/get-txn-totals';

/**
 * Beyond the spec: per-currency totals of every row matching the filter (not only the page). As the
 * API sums them: the net of the successful rows (signed) is the figure; the count and the listed
 * amount are of every matching row, whatever its status — labelled so (issue 29 §5: the count of all
 * rows stood under a "successful" heading).
 */
export function TxnTotals({ query }: { query: TxnWireQuery }) {
  const { t, i18n } = useTranslation('txn');
  const { data, isPending } = useTxnTotals(query);
  if (isPending) return <Skeleton.Input active size="small" style={{ width: 320 }} />;
  if (!data?.length) return null;
  return (
    <section aria-label={t('totals.title')} className="txn-totals">
      <Typography.Text type="secondary">{t('totals.title')}</Typography.Text>
      <Flex gap={24} wrap style={{ marginTop: 4 }}>
        {data.map((c) => (
          <div key={c.currency} data-testid={`total-${c.currency}`}>
            <Statistic
              title={t('totals.net', { currency: c.currency })}
              value={formatAmount(c.net, c.currency, i18n.language)}
              suffix={c.currency}
              styles={{ content: { fontSize: 18, fontVariantNumeric: 'tabular-nums' } }}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('totals.gross', { count: c.count, amount: `${formatAmount(c.amount, c.currency, i18n.language)} ${c.currency}` })}
            </Typography.Text>
          </div>
        ))}
      </Flex>
    </section>
  );
}
