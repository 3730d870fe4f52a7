import { Button, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { brandName, canShowPblQr, type PayInStoreRow } from '@portal/contract';
import { Money } from '../../components/money';
import { formatPlatform } from '../../lib/time';
import { PblStatusTag } from '../paybylink/components/pbl-status-tag';

/**
 * The in-store list's columns, like the pay-by-link list's: order number, creation time, store,
 * currency, amount, goods, payment method, status, operations (QR while awaiting payment, details).
 */
export function pisColumns(t: TFunction, a: { onShowQr: (r: PayInStoreRow) => void }): ColumnsType<PayInStoreRow> {
  return [
    { title: t('column.orderno'), dataIndex: 'orderno', width: 180, render: (v: string, r) => <Link to={`/payInStore/detail/${r.id}`}>{v}</Link> },
    { title: t('column.createTime'), dataIndex: 'createTime', width: 160, render: (v: string) => formatPlatform(v) },
    { title: t('column.store'), key: 'store', width: 200, ellipsis: true, render: (_, r) => `${r.storeName} (${r.storeId})` },
    { title: t('column.currency'), dataIndex: 'orderCurrency', width: 80 },
    { title: t('column.totalAmount'), dataIndex: 'totalAmount', width: 110, align: 'right', render: (v: string, r) => <Money value={v} currency={r.orderCurrency} showCurrency={false} /> },
    {
      title: t('column.goodsName'),
      dataIndex: 'goodsName',
      ellipsis: true,
      render: (v: string, r) => (r.qrType === 'static' ? <Tag>{t('qrType.static')}</Tag> : v),
    },
    { title: t('column.paymentBrand'), dataIndex: 'paymentBrand', width: 120, render: (v: string | null) => (v ? brandName(v) : '') },
    { title: t('column.status'), key: 'status', width: 150, render: (_, r) => <PblStatusTag status={r.status} openStatus={r.openStatus} /> },
    {
      title: t('column.operations'),
      key: 'operations',
      fixed: 'right',
      width: 150,
      render: (_, r) => (
        <Space size={0} wrap={false}>
          {canShowPblQr(r) && (
            <Button type="link" size="small" onClick={() => a.onShowQr(r)}>
              {t('action.showQr')}
            </Button>
          )}
          <Link to={`/payInStore/detail/${r.id}`} style={{ padding: '0 7px' }}>
            {t('action.details')}
          </Link>
        </Space>
      ),
    },
  ];
}
