import { Card, Collapse, Descriptions, Empty, Grid, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { brandName, type TxnDetail, type TxnRow } from '@portal/contract';
import { Money } from '../../../components/money';
import { SettleFlag, StatusTag } from './status-tag';
import { txnColumns } from '../txn.columns';
import { platformToOffset } from '../use-txn-filters';
import { defaultOffset, offsetLabel } from '../../../lib/time';

const dash = (v: string | null | undefined) => (v ? v : '—');

/** Main information (spec §2). */
export function MainInfo({ d }: { d: TxnDetail }) {
  const { t } = useTranslation('txn');
  const tz = defaultOffset();
  const settle = d.settlefeeAmount[0];
  const fee = d.settlefee[0];
  return (
    <Card title={t('detail.main')} variant="borderless">
      <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small" bordered>
        <Descriptions.Item label={t('detail.result')}>
          <StatusTag gwResponse={d.gwResponse} respMsg={d.respMsg} />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.time')}>
          {platformToOffset(d.currentTime, tz)} <Tag>{offsetLabel(tz)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.amount')}>
          <Money value={d.gwAmount} currency={d.gwCurrency} strong />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.brand')}>{dash(brandName(d.paymentBrand))}</Descriptions.Item>
        <Descriptions.Item label={t('detail.type')}>
          {t(`type.${d.gwTranType}`, { defaultValue: d.gwTranType })} ({d.gwTranType})
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.returnAmount')}>
          <Money value={d.mrequest.returnAmount} currency={d.gwCurrency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.orderNum')}>{d.mrequest.orderNum}</Descriptions.Item>
        <Descriptions.Item label={t('detail.channelOrderNo')}>{dash(d.gw_trans_id)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.gwTransId')}>{d.gwGTransId}</Descriptions.Item>
        <Descriptions.Item label={t('detail.merchant')}>
          {d.mrequest.clientid} - {d.merName}
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.merReserve')}>{dash(d.mrequest.merReserve)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.store')}>{d.mrequest.storeName || d.mrequest.storeId ? `${dash(d.mrequest.storeName)} (${dash(d.mrequest.storeId)})` : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('detail.settleState')}>{d.settleState ? <SettleFlag state={d.settleState} /> : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('detail.settleDate')}>{dash(d.gwDate)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.settleAmount')}>{settle ? <Money value={settle.amount} currency={settle.currency} /> : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('detail.settleFee')}>{fee ? <Money value={fee.amount} currency={fee.currency} /> : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('detail.originOrderNo')}>{dash(d.mrequest.originorderno)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.channel')}>
          {d.mrequest.paymentSchema}
          {d.mrequest.subBrandCode ? ` / ${d.mrequest.subBrandCode}` : ''}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** The associated orders' columns: those of the list without the merchant and the brand (one
 * purchase: the same for every row), the time headed by its zone. */
const ASSOCIATED_KEYS = ['orderno', 'currentTime', 'gwResponse', 'gwTranType', 'gwAmount', 'originorderno', 'settleFlag'];

/** Associated orders: the original purchase and all its refunds. At 1440 px the table fits its
 * card (it was 1,300 px wide in a 1,030 px card, the brand cut off, issue 53); on a phone each row
 * is the order number with its type, time and status under it, and the amount. */
export function AssociatedOrders({ d }: { d: TxnDetail }) {
  const { t } = useTranslation('txn');
  const narrow = !Grid.useBreakpoint().md;
  const tz = defaultOffset();
  const wide = txnColumns<TxnRow>(t, tz)
    .filter((c) => ASSOCIATED_KEYS.includes(String(c.key)))
    .map((c) => (c.key === 'orderno' ? { ...c, fixed: undefined } : c.key === 'currentTime' ? { ...c, title: `${t('col.time')} (${offsetLabel(tz)})` } : c));
  const compact: ColumnsType<TxnRow> = [
    {
      key: 'order',
      title: t('col.orderNo'),
      render: (_, r) => (
        <div className="associated-compact">
          <Link to={`/txn/detail/${r.id}`} className="txn-order-link">
            {r.mrequest.orderno}
          </Link>
          <div className="associated-compact__meta">
            {t(`type.${r.gwTranType}`, { defaultValue: r.gwTranType })} · {platformToOffset(r.currentTime, tz)} {offsetLabel(tz)}
          </div>
          <StatusTag gwResponse={r.gwResponse} respMsg={r.respMsg} />
        </div>
      ),
    },
    { key: 'gwAmount', title: t('col.amount'), align: 'right', render: (_, r) => <Money value={r.gwAmount} currency={r.gwCurrency} /> },
  ];
  return (
    <Card title={t('detail.associated')} variant="borderless">
      <Table<TxnRow>
        rowKey="id"
        size="small"
        pagination={false}
        columns={narrow ? compact : wide}
        dataSource={d.associated}
        rowClassName={(r) => (r.id === d.id ? 'txn-row--current' : '')}
        scroll={narrow ? undefined : { x: 'max-content' }}
        data-testid="associated-orders"
      />
    </Card>
  );
}

/** The collapsible 'more' section: URLs and the masked bank card. */
export function MoreInfo({ d }: { d: TxnDetail }) {
  const { t } = useTranslation('txn');
  return (
    <Collapse
      items={[
        {
          key: 'more',
          label: t('detail.more'),
          children: (
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('detail.backUrl')}>{dash(d.mrequest.backURL)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.frontUrl')}>{dash(d.mrequest.frontURL)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.card')}>{dash(d.backResponseToG.accNo)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.version')}>{d.mrequest.version}</Descriptions.Item>
            </Descriptions>
          ),
        },
      ]}
    />
  );
}

/** Shipping info (logistics). */
export function ShippingInfo({ d }: { d: TxnDetail }) {
  const { t } = useTranslation('txn');
  return (
    <Card title={t('detail.shipping')} variant="borderless">
      {d.shipping ? (
        <Descriptions column={{ xs: 1, md: 2, xl: 4 }} size="small" bordered>
          <Descriptions.Item label={t('logistics.shipmentNo')}>{d.shipping.shipmentNo}</Descriptions.Item>
          <Descriptions.Item label={t('logistics.company')}>{d.shipping.company}</Descriptions.Item>
          <Descriptions.Item label={t('logistics.shipDate')}>{d.shipping.shipDate}</Descriptions.Item>
          <Descriptions.Item label={t('logistics.status')}>{t(`logistics.statusValue.${d.shipping.status}`, { defaultValue: d.shipping.status })}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noShipping')} />
      )}
    </Card>
  );
}
