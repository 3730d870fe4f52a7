import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { brandName, type TxnRow } from '@portal/contract';
import { Money } from '../../components/money';
import { SettleFlag, StatusTag } from './components/status-tag';
import { platformToOffset } from './use-txn-filters';

/** The transaction list's columns (spec §2), defined once; times shown in the chosen zone. */
export function txnColumns<T extends TxnRow>(t: TFunction, tz: number): ColumnsType<T> {
  return [
    {
      key: 'orderno',
      title: t('col.orderNo'),
      fixed: 'left',
      width: 165,
      render: (_, r) => (
        <Link to={`/txn/detail/${r.id}`} className="txn-order-link">
          {r.mrequest.orderno}
        </Link>
      ),
    },
    { key: 'currentTime', title: t('col.time'), width: 150, render: (_, r) => platformToOffset(r.currentTime, tz) },
    { key: 'gwResponse', title: t('col.result'), width: 100, render: (_, r) => <StatusTag gwResponse={r.gwResponse} respMsg={r.respMsg} /> },
    // The whole name, wrapped (cut to "Demo Store S…" at 1440 px, issue 53).
    { key: 'merName', title: t('col.merName'), width: 120, className: 'cell-wrap', render: (_, r) => r.merName },
    { key: 'originorderno', title: t('col.originOrderNo'), width: 150, render: (_, r) => r.mrequest.originorderno ?? '' },
    { key: 'gwTranType', title: t('col.type'), width: 90, render: (_, r) => t(`type.${r.gwTranType}`, { defaultValue: r.gwTranType }) },
    { key: 'gwAmount', title: t('col.amount'), width: 130, align: 'right', render: (_, r) => <Money value={r.gwAmount} currency={r.gwCurrency} /> },
    { key: 'paymentBrand', title: t('col.brand'), width: 100, render: (_, r) => brandName(r.paymentBrand) },
    { key: 'settleFlag', title: t('col.settleFlag'), width: 115, render: (_, r) => <SettleFlag state={r.settleState} /> },
  ];
}
