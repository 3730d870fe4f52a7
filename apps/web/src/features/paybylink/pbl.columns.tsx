import { Button, Space, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { PBL_PROD_CATEGORY, canModifyPbl, type PayByLinkRow } from '@portal/contract';
import { Money, formatAmount } from '../../components/money';
import { formatPlatform } from '../../lib/time';
import { PblStatusTag } from './components/pbl-status-tag';

export interface PblRowActions {
  canDetail: boolean;
  canClose: boolean;
  canUpdate: boolean;
  onClose: (row: PayByLinkRow) => void;
  onUpdate: (row: PayByLinkRow) => void;
}

/**
 * The list's columns (spec §2): order number, creation time, recon id, currency, total amount,
 * buyer e-mail, status, operations — close and update only for prodCategory paybylink, disabled
 * once paid, processing or closed.
 */
export function pblColumns(t: TFunction, a: PblRowActions, lang = 'en'): ColumnsType<PayByLinkRow> {
  return [
    {
      title: t('column.orderno'),
      dataIndex: 'orderno',
      width: 200,
      // Under 768 px (global.css) the status and amount show under the whole order number, and the
      // operations column no longer covers it (issue 53: "PBL202611290000" on every row at 390 px).
      render: (v: string, r) => (
        <>
          <span className="pbl-orderno">{a.canDetail ? <Link to={`/payByLink/detail/${r.id}`}>{v}</Link> : v}</span>
          <span className="pbl-narrow-meta">
            <PblStatusTag status={r.status} openStatus={r.openStatus} testId="pbl-status-narrow" />
            <span className="num">{`${formatAmount(r.totalAmount, r.orderCurrency, lang)} ${r.orderCurrency}`}</span>
          </span>
        </>
      ),
    },
    { title: t('column.createTime'), dataIndex: 'createTime', width: 155, render: (v: string) => formatPlatform(v) },
    { title: t('column.reconId'), dataIndex: 'reconId', width: 110, ellipsis: true },
    { title: t('column.currency'), dataIndex: 'orderCurrency', width: 90 },
    { title: t('column.totalAmount'), dataIndex: 'totalAmount', width: 110, align: 'right', render: (v: string, r) => <Money value={v} currency={r.orderCurrency} showCurrency={false} /> },
    { title: t('column.buyerEmail'), dataIndex: 'buyerEmail', ellipsis: true, render: (v: string | null) => v ?? '' },
    { title: t('column.status'), key: 'status', width: 140, render: (_, r) => <PblStatusTag status={r.status} openStatus={r.openStatus} /> },
    {
      title: t('column.operations'),
      key: 'operations',
      fixed: 'right',
      width: 190,
      render: (_, r) => {
        const modifiable = canModifyPbl(r);
        const own = r.prodCategory === PBL_PROD_CATEGORY;
        return (
          <Space size={0} wrap={false}>
            {own && a.canClose && (
              <Button type="link" size="small" danger disabled={!modifiable} onClick={() => a.onClose(r)}>
                {t('action.close')}
              </Button>
            )}
            {own && a.canUpdate && (
              <Button type="link" size="small" disabled={!modifiable} onClick={() => a.onUpdate(r)}>
                {t('action.update')}
              </Button>
            )}
            {a.canDetail && (
              <Tooltip title={r.orderno}>
                {/* One line in every language (issue 29 §5: "詳細" wrapped onto two in ja). */}
                <Link to={`/payByLink/detail/${r.id}`} className="pbl-details-link" style={{ padding: '0 7px', whiteSpace: 'nowrap' }}>
                  {t('action.details')}
                </Link>
              </Tooltip>
            )}
          </Space>
        );
      },
    },
  ];
}
