import { useMemo, useState } from 'react';
import { Button, DatePicker, Flex, Input, Select, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BRANDS } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { FilterForm, FilterItem, useFilterForm } from '../../components/filter-form';
import { MerchantSelect } from '../../components/merchant-select';
import { Money } from '../../components/money';
import { useColumnChoice } from '../../components/column-chooser';
import { formatInstantLabelled } from '../../lib/time';
import { DISPUTE_KINDS, DISPUTE_STATES, useDisputes, type DisputeRow, type DisputeState } from './api/disputes-api';
import './disputes.css';

const KEYS = ['state', 'kind', 'reasonCode', 'brand', 'merId', 'currency', 'amountMin', 'amountMax', 'deadlineBefore', 'beginDate', 'endDate'] as const;
type Filters = Partial<Record<(typeof KEYS)[number], string>>;
interface FormValues extends Omit<Filters, 'state' | 'kind' | 'deadlineBefore' | 'beginDate' | 'endDate'> {
  state?: string[];
  kind?: string[];
  deadlineBefore?: dayjs.Dayjs | null;
  opened?: [dayjs.Dayjs, dayjs.Dayjs] | null;
}

const STATE_COLOR: Record<DisputeState, string> = { needs_response: 'red', under_review: 'blue', won: 'green', lost: 'default', accepted: 'default', expired: 'orange' };

/** Tag text dark enough on its tint (axe: 4.5:1; antd's preset greens and oranges are lighter). */
const TAG_TEXT: Record<string, string> = { green: '#135200', orange: '#873800', red: '#a8071a', blue: '#003eb3' };
export const tagText = (color: string) => (TAG_TEXT[color] ? { color: TAG_TEXT[color] } : undefined);

export function StateTag({ state }: { state: DisputeState }) {
  const { t } = useTranslation('disputes');
  return (
    <Tag className="dispute-tag" color={STATE_COLOR[state]} style={tagText(STATE_COLOR[state])}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** Days left as a tag: red within 3 days, orange within 7. */
export function DaysLeft({ d, dash = true }: { d: Pick<DisputeRow, 'daysLeft' | 'state'>; dash?: boolean }) {
  const { t } = useTranslation('disputes');
  if (d.state !== 'needs_response') return dash ? <span aria-hidden>—</span> : null;
  if (d.daysLeft < 0) return <Tag className="dispute-tag">{t('days.passed')}</Tag>;
  if (d.daysLeft === 0)
    return (
      <Tag className="dispute-tag" color="red" style={tagText('red')}>
        {t('days.today')}
      </Tag>
    );
  return (
    <Tag className="dispute-tag" color={d.daysLeft <= 3 ? 'red' : d.daysLeft <= 7 ? 'orange' : 'default'} style={tagText(d.daysLeft <= 3 ? 'red' : d.daysLeft <= 7 ? 'orange' : 'default')}>
      {t('days.left', { count: d.daysLeft })}
    </Tag>
  );
}

const toForm = (f: Filters): FormValues => ({
  ...f,
  state: f.state ? f.state.split(',') : undefined,
  kind: f.kind ? f.kind.split(',') : undefined,
  deadlineBefore: f.deadlineBefore ? dayjs(f.deadlineBefore) : null,
  opened: f.beginDate && f.endDate ? [dayjs(f.beginDate), dayjs(f.endDate)] : null,
});

/** /disputes/list (issue 48): the disputes inbox — open ones first, by deadline, with days left in the user's zone. */
export function DisputesListPage() {
  const { t } = useTranslation('disputes');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => Object.fromEntries(KEYS.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : []))) as Filters, [params]);
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const size = Math.min(100, Math.max(10, Number(params.get('size') ?? '20') || 20));
  const { data, isFetching } = useDisputes({ ...filters, page, size });
  const form = useFilterForm(filters, toForm);
  // The less used filters fold away (a phone shows the list, not a page of fields), open when one is set.
  const [more, setMore] = useState(() => ['reasonCode', 'brand', 'amountMin', 'amountMax', 'beginDate', 'deadlineBefore'].some((k) => params.get(k)));

  const search = (v: FormValues) => {
    const next = new URLSearchParams();
    const put = (k: string, val: string | undefined | null) => {
      if (val) next.set(k, val);
    };
    put('state', v.state?.join(','));
    put('kind', v.kind?.join(','));
    for (const k of ['reasonCode', 'brand', 'merId', 'currency', 'amountMin', 'amountMax'] as const) put(k, v[k]?.trim());
    put('deadlineBefore', v.deadlineBefore?.format('YYYY-MM-DD'));
    put('beginDate', v.opened?.[0]?.format('YYYY-MM-DD'));
    put('endDate', v.opened?.[1]?.format('YYYY-MM-DD'));
    if (params.get('size')) next.set('size', params.get('size')!);
    setParams(next);
  };

  const columns: ColumnsType<DisputeRow> = [
    {
      key: 'dispute',
      title: t('col.dispute'),
      fixed: 'left',
      width: 210,
      render: (_, d) => (
        <Link to={`/disputes/detail/${d.id}`} className="dispute-id">
          {d.gwDisputeId}
        </Link>
      ),
    },
    { key: 'state', title: t('col.state'), width: 120, render: (_, d) => <StateTag state={d.state} /> },
    { key: 'daysLeft', title: t('col.daysLeft'), width: 120, render: (_, d) => <DaysLeft d={d} /> },
    { key: 'deadline', title: t('col.deadline'), width: 190, render: (_, d) => formatInstantLabelled(d.deadline) },
    { key: 'amount', title: t('col.amount'), width: 140, align: 'right', render: (_, d) => <Money value={d.amount} currency={d.currency} /> },
    { key: 'kind', title: t('col.kind'), width: 130, render: (_, d) => t(`kind.${d.kind}`) },
    { key: 'reason', title: t('col.reason'), width: 240, render: (_, d) => `${d.reasonCode} · ${d.reason === d.reasonCode ? '' : d.reason}`.replace(/ · $/, '') },
    { key: 'brand', title: t('col.brand'), width: 110, render: (_, d) => BRANDS.find((b) => b.code === d.brand)?.name ?? d.brand },
    { key: 'merchant', title: t('col.merchant'), width: 180, render: (_, d) => d.merName },
    {
      key: 'purchase',
      title: t('col.purchase'),
      width: 180,
      render: (_, d) => <Link to={`/txn/detail/${d.purchaseId}`}>{d.purchaseOrderNo}</Link>,
    },
    { key: 'opened', title: t('col.opened'), width: 190, render: (_, d) => formatInstantLabelled(d.openedAt) },
  ];
  const { visible, scrollX, chooser } = useColumnChoice('disputes', columns, ['brand', 'opened']);

  return (
    <PageContainer>
      <FilterForm<FormValues>
        form={form}
        name="dispute-filters"
        initialValues={toForm(filters)}
        onFinish={search}
        search={t('filter.search')}
        clear={{ label: t('filter.clear'), onClick: () => setParams(new URLSearchParams()) }}
        extra={
          <>
            <Button type="link" aria-expanded={more} onClick={() => setMore(!more)}>
              {more ? t('filter.less') : t('filter.more')}
            </Button>
            {chooser}
          </>
        }
      >
        <FilterItem name="state" label={t('filter.state')}>
          <Select mode="multiple" allowClear placeholder={t('filter.all')} options={DISPUTE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))} />
        </FilterItem>
        <FilterItem name="kind" label={t('filter.kind')}>
          <Select mode="multiple" allowClear placeholder={t('filter.all')} options={DISPUTE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
        </FilterItem>
        <FilterItem name="merId" label={t('filter.merchant')}>
          <MerchantSelect placeholder={t('filter.all')} />
        </FilterItem>
        <FilterItem name="deadlineBefore" label={t('filter.deadlineBefore')} hidden={!more}>
          <DatePicker style={{ width: '100%' }} />
        </FilterItem>
        <FilterItem name="reasonCode" hidden={!more} label={t('filter.reasonCode')}>
          <Input allowClear maxLength={8} />
        </FilterItem>
        <FilterItem name="brand" hidden={!more} label={t('filter.brand')}>
          <Select allowClear showSearch placeholder={t('filter.all')} options={BRANDS.filter((b) => b.category === 'card').map((b) => ({ value: b.code, label: b.name }))} />
        </FilterItem>
        <FilterItem label={t('filter.amountMin')} name="amountMin" hidden={!more}>
          <Input allowClear inputMode="decimal" maxLength={16} />
        </FilterItem>
        <FilterItem label={t('filter.amountMax')} name="amountMax" hidden={!more}>
          <Input allowClear inputMode="decimal" maxLength={16} />
        </FilterItem>
        <FilterItem name="opened" hidden={!more} label={t('filter.opened')}>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </FilterItem>
      </FilterForm>
      <Flex vertical gap={12} style={{ marginTop: 16 }}>
        <Table<DisputeRow>
          rowKey="id"
          columns={visible}
          dataSource={data?.content ?? []}
          loading={isFetching}
          locale={{ emptyText: t('empty') }}
          scroll={{ x: scrollX }}
          pagination={{
            current: page,
            pageSize: size,
            total: data?.totalElements ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => t('total', { count: total }),
            onChange: (p, s) => {
              const next = new URLSearchParams(params);
              next.set('page', String(p));
              next.set('size', String(s));
              setParams(next);
            },
          }}
        />
      </Flex>
    </PageContainer>
  );
}
