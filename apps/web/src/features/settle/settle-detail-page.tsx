import { useMemo, useState } from 'react';
import { Button, Dropdown, Flex, Form, Grid, Input, Select } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { zoneNow } from '../../lib/time';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, type SettleBatchRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ListTable } from '../../components/list-table';
import { useFilterForm } from '../../components/filter-form';
import { SavedViews } from '../views/saved-views';
import { Money } from '../../components/money';
import { DateRangeFilter } from '../../components/date-range-filter';
import { MerchantSelect } from '../../components/merchant-select';
import { usePageParams } from '../../lib/paging';
import { downloadStatement, useSettleBatches } from './api';
import { proofPath } from '../trail/api';

type Range = [dayjs.Dayjs, dayjs.Dayjs];
const D = 'YYYY-MM-DD';
type Filters = { range: Range | null; merId?: string; busLine?: string; setCur?: string };
/** The form's fields from the URL's filters. */
const toForm = ({ beginDate, endDate, ...rest }: { beginDate: string; endDate: string; merId?: string; busLine?: string; setCur?: string }): Filters => ({
  range: [dayjs(beginDate), dayjs(endDate)],
  ...rest,
});

/** Left out until the user picks them with "Columns" (issue 29 §3: the batch's figures in view at 1440 px). */
const SETTLE_DETAIL_HIDDEN = ['busLine', 'currency', 'count', 'settleAmount', 'fee', 'released', 'before', 'remit'];

/**
 * /txn/settleDetail: settlement batches (one per settlement date, merchant, business line and
 * currency) — settled amount, fees, reserve, transfer — each opening its transactions (the settle
 * list of that date) and downloading its statement (PDF or CSV, totals equal to the transfer report row).
 */
export function SettleDetailPage() {
  const { t } = useTranslation(['settleDetail', 'trail']);
  const [params, setParams] = useSearchParams();
  const { page, size, pagination } = usePageParams();
  const beginDate = params.get('beginDate') ?? zoneNow().subtract(30, 'day').format(D);
  const endDate = params.get('endDate') ?? zoneNow().format(D);
  const q = { page, size, beginDate, endDate, merId: params.get('merId') || undefined, busLine: params.get('busLine') || undefined, setCur: params.get('setCur') || undefined };
  const list = useSettleBatches(q);
  const [busy, setBusy] = useState<string | null>(null);
  // On a phone the actions scroll with the row: fixed on both sides, date and actions filled the screen.
  const wide = Grid.useBreakpoint().md !== false;
  // The fields follow the URL (a saved view opened, back and forward).
  const filters = useMemo(() => ({ beginDate, endDate, merId: q.merId, busLine: q.busLine, setCur: q.setCur }), [beginDate, endDate, q.merId, q.busLine, q.setCur]);
  const form = useFilterForm(filters, toForm);
  const search = (v: Filters) =>
    setParams(() => {
      const out = new URLSearchParams();
      const r = v.range ?? [dayjs(beginDate), dayjs(endDate)];
      out.set('beginDate', r[0].format(D));
      out.set('endDate', r[1].format(D));
      if (v.merId) out.set('merId', v.merId);
      if (v.busLine?.trim()) out.set('busLine', v.busLine.trim().toUpperCase());
      if (v.setCur) out.set('setCur', v.setCur);
      out.set('page', '1');
      out.set('size', String(size));
      return out;
    });
  const download = async (b: SettleBatchRow, format: 'pdf' | 'csv') => {
    setBusy(`${b.id}|${format}`);
    try {
      await downloadStatement(b, format);
    } finally {
      setBusy(null);
    }
  };
  const columns = useMemo<ColumnsType<SettleBatchRow>>(() => {
    const money =
      (k: keyof SettleBatchRow, strong = false) =>
      (_: unknown, r: SettleBatchRow) => <Money value={r[k] as string} currency={r.merTxnSet} strong={strong} />;
    return [
      { key: 'txnSetDate', title: t('col.settleDate'), dataIndex: 'txnSetDate', width: 110, fixed: 'left' },
      { key: 'merchant', title: t('col.merchant'), width: 190, render: (_, r) => `${r.clientid} - ${r.merName}` },
      { key: 'busLine', title: t('col.busLine'), dataIndex: 'reconBusiness', width: 100 },
      { key: 'currency', title: t('col.currency'), dataIndex: 'merTxnSet', width: 80 },
      { key: 'count', title: t('col.count'), dataIndex: 'txnCount', width: 80, align: 'right' },
      { key: 'settleAmount', title: t('col.settleAmount'), width: 150, align: 'right', render: money('settleAmount') },
      { key: 'fee', title: t('col.fee'), width: 130, align: 'right', render: money('fee') },
      { key: 'recon', title: t('col.reconSetAmount'), width: 160, align: 'right', render: money('reconSetAmount', true) },
      { key: 'serv', title: t('col.servAmount'), width: 140, align: 'right', render: money('servAmount') },
      { key: 'released', title: t('col.released'), width: 140, align: 'right', render: money('releasedAmount') },
      { key: 'before', title: t('col.beforeFee'), width: 170, align: 'right', render: money('realTransAmountBeforeTransFee') },
      { key: 'tranFee', title: t('col.tranFee'), width: 120, align: 'right', render: money('tranFee') },
      { key: 'real', title: t('col.realTrans'), width: 160, align: 'right', render: money('realTransAmount', true) },
      { key: 'remit', title: t('col.remitDate'), width: 120, render: (_, r) => r.remitDate ?? '—' },
      {
        key: 'action',
        title: t('col.action'),
        width: 200,
        fixed: wide ? 'right' : undefined,
        render: (_, r) => (
          <Flex gap={8} align="center">
            <Link to={`/txn/settleList?beginDate=${r.txnSetDate}&endDate=${r.txnSetDate}&busLine=${r.reconBusiness}&setCur=${r.merTxnSet}&clientid=${r.clientid}`}>{t('transactions')}</Link>
            {r.remitDate ? <Link to={proofPath(r)}>{t('trail:proofLink')}</Link> : null}
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'pdf', label: t('statementPdf') },
                  { key: 'csv', label: t('statementCsv') },
                ],
                onClick: ({ key }) => void download(r, key as 'pdf' | 'csv'),
              }}
            >
              <Button size="small" icon={<DownloadOutlined />} loading={busy?.startsWith(r.id)} aria-label={`${t('statement')} ${r.txnSetDate} ${r.clientid} ${r.reconBusiness}`}>
                {t('statement')}
              </Button>
            </Dropdown>
          </Flex>
        ),
      },
    ];
  }, [t, busy, wide]);
  return (
    <PageContainer>
      <Form
        form={form}
        layout="inline"
        className="stack-narrow"
        style={{ marginBottom: 16, rowGap: 8 }}
        initialValues={{ range: [dayjs(beginDate), dayjs(endDate)], merId: q.merId, busLine: q.busLine, setCur: q.setCur }}
        onFinish={search}
      >
        <Form.Item name="range" label={t('filter.settleDate')}>
          <DateRangeFilter allowClear={false} aria-label={t('filter.settleDate')} />
        </Form.Item>
        <Form.Item name="merId" label={t('filter.merchant')}>
          <MerchantSelect aria-label={t('filter.merchant')} />
        </Form.Item>
        <Form.Item name="busLine" label={t('col.busLine')}>
          <Input allowClear maxLength={20} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="setCur" label={t('col.currency')}>
          <Select allowClear showSearch style={{ width: 110 }} aria-label={t('col.currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit">
            {t('search')}
          </Button>
          <Button onClick={() => setParams(new URLSearchParams({ page: '1', size: String(size) }))}>{t('clear')}</Button>
          <SavedViews />
        </Flex>
      </Form>
      <ListTable<SettleBatchRow> ns="settleDetail" columns={columns} list={list} pagination={pagination} table="settleDetail" defaultHidden={SETTLE_DETAIL_HIDDEN} />
    </PageContainer>
  );
}
