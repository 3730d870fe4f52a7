import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Descriptions, Drawer, Form, Input, Select, Skeleton, Space, Table, Tag, Timeline, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { BRANDS, OPS_DISPUTE_OUTCOMES, OPS_DISPUTES_WRITE_ROLES, OpsWorkApi } from '@portal/contract';
import { dayjs, formatInstantLabelled } from '../../lib/time';
import { formatAmount, Money } from '../../components/money';
import { DISPUTE_KINDS, DISPUTE_STATES, type DisputeDetail, type DisputeRow, type DisputeState } from '../disputes/api/disputes-api';
import { DaysLeft, StateTag } from '../disputes/disputes-list-page';
import { opsDisputesApi } from './api/ops-disputes-http';
import { mayDo, useOperator } from './ops-me';
import { opsQuery } from './api/ops-query';
import { areaKey } from '../../lib/api-query';

type Outcome = (typeof OPS_DISPUTE_OUTCOMES)[number];
/** An amount inside a line of text (Money is a right-aligned cell of its own). */
function InlineMoney({ value, currency }: { value: string; currency: string }) {
  const { i18n } = useTranslation();
  return (
    <span className="ops-disputes__money">
      {formatAmount(value, currency, i18n.language)} {currency}
    </span>
  );
}
const brandName = (code: string | null) => (code ? (BRANDS.find((b) => b.code === code)?.name ?? code) : '—');
/** The outcomes the state machine lets a gateway (here: an operator) enter from a state. */
const outcomesFrom = (s: DisputeState): Outcome[] => (s === 'needs_response' ? ['under_review', 'won', 'lost'] : s === 'under_review' ? ['won', 'lost'] : []);

/** One dispute of any merchant: its purchase and refunds, reason, amounts, settlement lines, timeline; the outcome for risk. */
function DisputeDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('opsDisputes');
  const { t: td } = useTranslation('disputes');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ outcome: Outcome; note?: string }>();
  const q = useQuery({ ...opsQuery(OpsWorkApi.dispute, { id: id! }), enabled: id !== null });
  const enter = useMutation({
    mutationFn: (v: { outcome: Outcome; note?: string }) => opsDisputesApi.outcome(id!, v.outcome, v.note?.trim() || null),
    onSuccess: (_, v) => {
      void message.success(t('outcome.saved', { state: td(`state.${v.outcome}`) }));
      form.resetFields();
      void qc.invalidateQueries({ queryKey: areaKey(OpsWorkApi.disputes, 2) });
    },
  });
  const d: DisputeDetail | undefined = q.data;
  const canWrite = mayDo(me, OPS_DISPUTES_WRITE_ROLES);
  const options = d ? outcomesFrom(d.state) : [];
  return (
    <Drawer open={id !== null} onClose={onClose} width="min(760px, 100vw)" title={d ? t('detail.title', { id: d.gwDisputeId }) : t('detail.loading')} destroyOnHidden>
      {!d ? (
        q.isError ? (
          <Alert type="error" showIcon message={td('detail.loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 6 }} />
        )
      ) : (
        <div className="ops-disputes__detail">
          <Space wrap className="ops-disputes__tags">
            <StateTag state={d.state} />
            <Tag>{td(`kind.${d.kind}`)}</Tag>
            <DaysLeft d={d} dash={false} />
            {d.sendState ? <Tag>{td(`send.${d.sendState}`)}</Tag> : null}
          </Space>
          <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered>
            <Descriptions.Item label={td('col.merchant')}>
              {d.merName} <Typography.Text type="secondary">{d.merId}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={td('col.deadline')}>{formatInstantLabelled(d.deadline)}</Descriptions.Item>
            <Descriptions.Item label={td('detail.disputed')}>
              <Money value={d.amount} currency={d.currency} strong />
            </Descriptions.Item>
            <Descriptions.Item label={td('detail.debited')}>
              <Money value={d.debitAmount} currency={d.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={td('detail.refundedBefore')}>
              <Money value={d.refundedBefore} currency={d.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={td('col.opened')}>{formatInstantLabelled(d.openedAt)}</Descriptions.Item>
            <Descriptions.Item label={td('detail.reason')} span={2}>
              {d.reasonKnown ? `${d.reasonCode} · ${d.reason}` : d.reasonCode}
              {!d.reasonKnown ? <div className="ops-disputes__muted">{td('detail.unknownReason')}</div> : null}
            </Descriptions.Item>
            <Descriptions.Item label={td('detail.purchase')} span={2}>
              {d.purchase.orderNo} · {d.purchase.gwTransId} · <InlineMoney value={d.purchase.amount} currency={d.purchase.currency} /> · {brandName(d.purchase.brand)} ·{' '}
              {formatInstantLabelled(d.purchase.time)}
            </Descriptions.Item>
            <Descriptions.Item label={td('detail.refunds')} span={2}>
              {d.refunds.length
                ? d.refunds.map((r) => (
                    <div key={r.id}>
                      {r.orderNo} · <InlineMoney value={r.amount} currency={r.currency} /> · {formatInstantLabelled(r.time)}
                    </div>
                  ))
                : td('detail.noRefunds')}
            </Descriptions.Item>
            <Descriptions.Item label={td('detail.evidence')} span={2}>
              {d.evidence.length
                ? d.evidence.map((e) => (
                    <div key={e.id} className="ops-disputes__file">
                      {td(`category.${e.category}`, { defaultValue: e.category })} · {e.fileName}
                      {e.submitted ? null : <Tag className="ops-disputes__draft">{t('detail.draft')}</Tag>}
                    </div>
                  ))
                : td('detail.noEvidence')}
              {d.submittedAt ? <div className="ops-disputes__muted">{t('detail.submittedAt', { at: formatInstantLabelled(d.submittedAt) })}</div> : null}
            </Descriptions.Item>
          </Descriptions>

          <Typography.Title level={2} className="ops-disputes__subtitle">
            {t('outcome.title')}
          </Typography.Title>
          {!options.length ? (
            <Typography.Paragraph>
              {t('outcome.final', { state: td(`state.${d.state}`) })}
              {d.outcomeBy ? ` · ${d.outcomeBy}` : ''}
            </Typography.Paragraph>
          ) : canWrite ? (
            <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => enter.mutate(v)}>
              <Typography.Paragraph type="secondary">{t('outcome.explain')}</Typography.Paragraph>
              <Form.Item name="outcome" label={t('outcome.field')} rules={[{ required: true, message: t('outcome.required') }]}>
                <Select options={options.map((o) => ({ value: o, label: td(`state.${o}`) }))} />
              </Form.Item>
              <Form.Item name="note" label={t('outcome.note')} extra={t('outcome.noteHint')}>
                <Input.TextArea rows={2} maxLength={500} showCount />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={enter.isPending}>
                {t('outcome.submit')}
              </Button>
            </Form>
          ) : (
            <Alert type="info" showIcon message={t('outcome.readOnly')} />
          )}

          <Typography.Title level={2} className="ops-disputes__subtitle">
            {td('detail.settlement')}
          </Typography.Title>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: 520 }}
            dataSource={d.settlement}
            locale={{ emptyText: td('detail.notSettled') }}
            columns={[
              { key: 'kind', title: td('detail.line'), render: (_, m) => td(`line.${m.kind}`) },
              { key: 'amount', title: td('col.amount'), align: 'right', render: (_, m) => <Money value={m.amount} currency={m.setCur} /> },
              { key: 'date', title: td('detail.settleDate'), render: (_, m) => m.settleDate ?? td('detail.notSettled') },
              { key: 'busLine', title: td('detail.busLine'), dataIndex: 'busLine' },
              { key: 'txn', title: td('detail.gwTransId'), dataIndex: 'gwTransId' },
            ]}
          />
          <Typography.Title level={2} className="ops-disputes__subtitle">
            {td('detail.timeline')}
          </Typography.Title>
          <Timeline
            items={d.timeline.map((e) => ({
              children: (
                <span>
                  <strong>{td(`action.${e.action}`, { defaultValue: e.action })}</strong> · {formatInstantLabelled(e.at)}
                  {e.by ? ` · ${e.by}` : ''}
                </span>
              ),
            }))}
          />
        </div>
      )}
    </Drawer>
  );
}

/**
 * /ops/disputes (issue 48): every merchant's disputes, open ones first by deadline with days left;
 * filters by state, kind, merchant, reason, brand and deadline; a dispute opens in a drawer.
 */
export default function DisputesPage() {
  const { t } = useTranslation('opsDisputes');
  const { t: td } = useTranslation('disputes');
  const [params, setParams] = useSearchParams();
  const [state, setState] = useState<string[]>([]);
  const [kind, setKind] = useState<string[]>([]);
  const [merId, setMerId] = useState('');
  const [reasonCode, setReasonCode] = useState('');
  const [brand, setBrand] = useState<string | undefined>();
  const [deadline, setDeadline] = useState<dayjs.Dayjs | null>(null);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const open = Number(params.get('id')) || null;
  const query = {
    state: state.join(',') || undefined,
    kind: kind.join(',') || undefined,
    // The server takes a whole merchant number (15 digits) or none.
    merId: /^\d{15}$/.test(merId.trim()) ? merId.trim() : undefined,
    reasonCode: /^[A-Za-z0-9.]{1,8}$/.test(reasonCode.trim()) ? reasonCode.trim() : undefined,
    brand,
    deadlineBefore: deadline?.format('YYYY-MM-DD'),
    page,
    size,
  };
  const list = useQuery({ ...opsQuery(OpsWorkApi.disputes, query), placeholderData: keepPreviousData });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const openOne = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id === null) next.delete('id');
    else next.set('id', String(id));
    setParams(next);
  };
  const columns: ColumnsType<DisputeRow> = [
    {
      key: 'dispute',
      title: td('col.dispute'),
      fixed: 'left',
      width: 200,
      render: (_, d) => (
        <Button type="link" className="ops-disputes__id" onClick={() => openOne(d.id)}>
          {d.gwDisputeId}
        </Button>
      ),
    },
    {
      key: 'merchant',
      title: td('col.merchant'),
      width: 200,
      render: (_, d) => (
        <>
          {d.merName}
          <div className="ops-disputes__muted">{d.merId}</div>
        </>
      ),
    },
    { key: 'state', title: td('col.state'), width: 120, render: (_, d) => <StateTag state={d.state} /> },
    { key: 'daysLeft', title: td('col.daysLeft'), width: 120, render: (_, d) => <DaysLeft d={d} /> },
    { key: 'deadline', title: td('col.deadline'), width: 180, render: (_, d) => formatInstantLabelled(d.deadline) },
    { key: 'amount', title: td('col.amount'), width: 130, align: 'right', render: (_, d) => <Money value={d.amount} currency={d.currency} /> },
    { key: 'kind', title: td('col.kind'), width: 120, render: (_, d) => td(`kind.${d.kind}`) },
    { key: 'reason', title: td('col.reason'), width: 220, render: (_, d) => (d.reason === d.reasonCode ? d.reasonCode : `${d.reasonCode} · ${d.reason}`) },
    { key: 'brand', title: td('col.brand'), width: 110, render: (_, d) => brandName(d.brand) },
  ];
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('explain')}</Typography.Paragraph>
      <div className="ops-toolbar ops-disputes__filters">
        <Select
          aria-label={td('filter.state')}
          mode="multiple"
          allowClear
          placeholder={td('filter.state')}
          className="ops-disputes__select"
          value={state}
          onChange={reset(setState)}
          options={DISPUTE_STATES.map((s) => ({ value: s, label: td(`state.${s}`) }))}
        />
        <Select
          aria-label={td('filter.kind')}
          mode="multiple"
          allowClear
          placeholder={td('filter.kind')}
          className="ops-disputes__select"
          value={kind}
          onChange={reset(setKind)}
          options={DISPUTE_KINDS.map((k) => ({ value: k, label: td(`kind.${k}`) }))}
        />
        <Input
          aria-label={td('filter.merchant')}
          placeholder={t('merchantHint')}
          allowClear
          inputMode="numeric"
          maxLength={15}
          className="ops-disputes__input"
          value={merId}
          onChange={(e) => reset(setMerId)(e.target.value)}
        />
        <Input
          aria-label={td('filter.reasonCode')}
          placeholder={td('filter.reasonCode')}
          allowClear
          maxLength={8}
          className="ops-disputes__short"
          value={reasonCode}
          onChange={(e) => reset(setReasonCode)(e.target.value)}
        />
        <Select
          aria-label={td('filter.brand')}
          allowClear
          showSearch
          placeholder={td('filter.brand')}
          className="ops-disputes__short"
          value={brand}
          onChange={reset(setBrand)}
          options={BRANDS.filter((b) => b.category === 'card').map((b) => ({ value: b.code, label: b.name }))}
        />
        <DatePicker aria-label={td('filter.deadlineBefore')} placeholder={td('filter.deadlineBefore')} value={deadline} onChange={reset(setDeadline)} />
      </div>
      <Table<DisputeRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.content ?? []}
        loading={list.isFetching}
        locale={{ emptyText: td('empty') }}
        scroll={{ x: 1400 }}
        pagination={{
          current: page,
          pageSize: size,
          total: list.data?.totalElements ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (total) => td('total', { count: total }),
          onChange: (p, s) => {
            setPage(s === size ? p : 1);
            setSize(s);
          },
        }}
      />
      <DisputeDrawer id={open} onClose={() => openOne(null)} />
    </>
  );
}
