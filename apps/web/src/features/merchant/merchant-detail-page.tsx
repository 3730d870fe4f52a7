import { Alert, Descriptions, Table, Tabs, Tag } from 'antd';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MerchantDetail } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { Money } from '../../components/money';
import { formatPlatformLabelled } from '../../lib/time';
import { useMerchantDeposit, useMerchantDetail, useMerchantFees } from './api/merchant';
import { BankTab } from './components/bank-tab';

const dash = (v: string | null | undefined) => (v == null || v === '' ? '—' : v);

function BusinessTab({ m }: { m: MerchantDetail }) {
  const { t } = useTranslation('merchant');
  const contact = (c: MerchantDetail['principal']) => [c.name, c.email, c.tel].filter(Boolean).join(' · ') || '—';
  return (
    <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label={t('col.merId')}>{m.merId}</Descriptions.Item>
      <Descriptions.Item label={t('col.merName')}>{m.merName}</Descriptions.Item>
      <Descriptions.Item label={t('field.webStoreName')}>{dash(m.webStoreName)}</Descriptions.Item>
      <Descriptions.Item label={t('field.corporationName')}>{dash(m.corporationName)}</Descriptions.Item>
      <Descriptions.Item label={t('field.companyAddress')}>{dash(m.companyAddress)}</Descriptions.Item>
      <Descriptions.Item label={t('field.country')}>{dash(m.country)}</Descriptions.Item>
      <Descriptions.Item label={t('field.city')}>{dash(m.city)}</Descriptions.Item>
      <Descriptions.Item label={t('field.postcode')}>{dash(m.postcode)}</Descriptions.Item>
      <Descriptions.Item label={t('field.mcc')}>{dash(m.mcc)}</Descriptions.Item>
      <Descriptions.Item label={t('field.legalRegNo')}>{dash(m.legalRegNo)}</Descriptions.Item>
      <Descriptions.Item label={t('field.merchantUrl')}>{dash(m.merchantUrl)}</Descriptions.Item>
      <Descriptions.Item label={t('col.attribute')}>
        {t(`attribute.${m.attribute}`)}
        {m.parentId ? ` (${m.parentId})` : ''}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.applicationDate')}>{dash(m.applicationDate)}</Descriptions.Item>
      <Descriptions.Item label={t('field.locked')}>{m.locked ? <Tag color="warning">{t('yes')}</Tag> : t('no')}</Descriptions.Item>
      <Descriptions.Item label={t('col.approvalStatus')}>{t(`approval.${m.approvalStatus}`, { defaultValue: m.approvalStatus })}</Descriptions.Item>
      <Descriptions.Item label={t('col.approvedAt')}>{dash(formatPlatformLabelled(m.approvedAt))}</Descriptions.Item>
      <Descriptions.Item label={t('col.defaultCurrency')}>{m.defaultCurrency}</Descriptions.Item>
      <Descriptions.Item label={t('field.settleCurrency')}>{m.settleCurrency}</Descriptions.Item>
      <Descriptions.Item label={t('col.dailyLimit')}>{m.dailyLimit ? <Money value={m.dailyLimit} currency={m.defaultCurrency} /> : t('noLimit')}</Descriptions.Item>
      <Descriptions.Item label={t('field.acquirer')}>{dash(m.acquirer)}</Descriptions.Item>
      <Descriptions.Item label={t('field.channels')}>{m.channels.join(', ')}</Descriptions.Item>
      <Descriptions.Item label={t('field.currencies')}>{m.currencies.join(', ')}</Descriptions.Item>
      <Descriptions.Item label={t('field.principal')}>{contact(m.principal)}</Descriptions.Item>
      <Descriptions.Item label={t('field.operation')}>{contact(m.operation)}</Descriptions.Item>
    </Descriptions>
  );
}

function FeesTab({ merId }: { merId: string }) {
  const { t } = useTranslation('merchant');
  const fees = useMerchantFees(merId, true);
  return (
    <Table
      rowKey="id"
      size="small"
      loading={fees.isFetching}
      pagination={false}
      scroll={{ x: 1000 }}
      dataSource={fees.data?.content ?? []}
      columns={[
        { key: 'busLine', title: t('fee.busLine'), dataIndex: 'busLine', width: 110 },
        { key: 'channels', title: t('fee.channels'), width: 150, render: (_, r) => r.channels.join(', ') || '—' },
        { key: 'rate', title: t('fee.rate'), width: 100, align: 'right', render: (_, r) => `${r.rate}%` },
        { key: 'fixed', title: t('fee.fixed'), width: 140, align: 'right', render: (_, r) => <Money value={r.fixedFee} currency={r.currency} /> },
        { key: 'cycle', title: t('fee.cycle'), width: 90, render: (_, r) => `T+${r.cycleDays}` },
        { key: 'reserve', title: t('fee.reserve'), width: 150, render: (_, r) => t('fee.reserveText', { rate: r.reserveRate, days: r.reserveHoldDays }) },
        { key: 'from', title: t('fee.effectiveFrom'), width: 120, render: (_, r) => dash(r.effectiveFrom) },
        { key: 'to', title: t('fee.effectiveTo'), width: 120, render: (_, r) => r.effectiveTo ?? t('fee.open') },
      ]}
    />
  );
}

function DepositTab({ m }: { m: MerchantDetail }) {
  const { t } = useTranslation('merchant');
  const dep = useMerchantDeposit(m.merId, true);
  return (
    <>
      <Descriptions size="small" style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('deposit.contract')}>
          <Money value={m.deposit} currency={m.settleCurrency} />
        </Descriptions.Item>
      </Descriptions>
      <Table
        rowKey={(r) => `${r.busLine}|${r.currency}`}
        size="small"
        loading={dep.isFetching}
        pagination={false}
        scroll={{ x: 800 }}
        dataSource={dep.data?.lines ?? []}
        columns={[
          { key: 'busLine', title: t('fee.busLine'), dataIndex: 'busLine', width: 110 },
          { key: 'rate', title: t('fee.reserve'), width: 160, render: (_, r) => t('fee.reserveText', { rate: r.reserveRate, days: r.reserveHoldDays }) },
          { key: 'held', title: t('deposit.held'), width: 150, align: 'right', render: (_, r) => <Money value={r.held} currency={r.currency} /> },
          { key: 'released', title: t('deposit.released'), width: 150, align: 'right', render: (_, r) => <Money value={r.released} currency={r.currency} /> },
          { key: 'balance', title: t('deposit.balance'), width: 150, align: 'right', render: (_, r) => <Money value={r.balance} currency={r.currency} strong /> },
        ]}
      />
      <h4 style={{ marginTop: 20 }}>{t('deposit.next')}</h4>
      <Table
        rowKey={(r) => `${r.txnSetDate}|${r.busLine}|${r.currency}`}
        size="small"
        pagination={false}
        scroll={{ x: 600 }}
        dataSource={dep.data?.nextReleases ?? []}
        locale={{ emptyText: t('deposit.none') }}
        columns={[
          { key: 'releaseDate', title: t('deposit.releaseDate'), dataIndex: 'releaseDate', width: 130 },
          { key: 'txnSetDate', title: t('deposit.heldOn'), dataIndex: 'txnSetDate', width: 130 },
          { key: 'busLine', title: t('fee.busLine'), dataIndex: 'busLine', width: 110 },
          { key: 'amount', title: t('deposit.amount'), width: 150, align: 'right', render: (_, r) => <Money value={r.amount} currency={r.currency} /> },
        ]}
      />
    </>
  );
}

function TransferTab({ m }: { m: MerchantDetail }) {
  const { t } = useTranslation('merchant');
  const period = (p: string) => (p === 'D' ? t('period.daily') : p.startsWith('W') ? t('period.weekly', { day: t(`weekday.${p.slice(1)}`) }) : t('period.monthly', { day: p.slice(1) }));
  return (
    <Table
      rowKey="busLine"
      size="small"
      pagination={false}
      scroll={{ x: 600 }}
      dataSource={m.transfer}
      columns={[
        { key: 'busLine', title: t('fee.busLine'), dataIndex: 'busLine', width: 110 },
        { key: 'threshold', title: t('transfer.threshold'), width: 160, align: 'right', render: (_, r) => <Money value={r.threshold} currency={r.currency} /> },
        { key: 'fee', title: t('transfer.fee'), width: 140, align: 'right', render: (_, r) => <Money value={r.fee} currency={r.currency} /> },
        { key: 'period', title: t('transfer.period'), width: 180, render: (_, r) => period(r.period) },
      ]}
    />
  );
}

/** /merchant/detail/{id}: business information, fees, bank accounts, deposit and reserve, transfer terms (read-only; bank changes are requests). */
export function MerchantDetailPage() {
  const { t } = useTranslation('merchant');
  const { id = '' } = useParams();
  const detail = useMerchantDetail(id);
  const m = detail.data;
  if (detail.isError)
    return (
      <PageContainer back>
        <Alert type="warning" showIcon title={t('notFound')} />
      </PageContainer>
    );
  return (
    <PageContainer back title={m ? `${m.merName} (${m.merId})` : undefined}>
      {m && (
        <Tabs
          items={[
            { key: 'business', label: t('tab.business'), children: <BusinessTab m={m} /> },
            { key: 'fees', label: t('tab.fees'), children: <FeesTab merId={m.merId} /> },
            { key: 'bank', label: t('tab.bank'), children: <BankTab merId={m.merId} /> },
            { key: 'deposit', label: t('tab.deposit'), children: <DepositTab m={m} /> },
            { key: 'transfer', label: t('tab.transfer'), children: <TransferTab m={m} /> },
          ]}
        />
      )}
    </PageContainer>
  );
}
