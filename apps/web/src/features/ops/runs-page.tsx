import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Popconfirm, Select, Table, Tabs, Tag, Typography } from 'antd';
import { OPS_RUNS_WRITE_ROLES, OpsWorkApi, toDecimal, type ExportStatus, type JOB_STATUSES } from '@portal/contract';
import { dayjs, formatInstant } from '../../lib/time';
import { opsRunsApi, type OpsExportRow, type OpsGatewayRow, type OpsJobRow, type OpsSettlementRun } from './api/ops-http';
import { mayDo, useOperator } from './ops-me';
import { FxWaitingAlert } from './fx-waiting-alert';
import type { OpsFxWaiting } from './api/ops-rates-http';
import { opsQuery } from './api/ops-query';
import { apiKey, areaKey } from '../../lib/api-query';

const STATE_COLOR: Record<string, string> = { done: 'success', ready: 'success', skipped: 'default', running: 'processing', queued: 'processing', failed: 'error', pending: 'warning' };
const when = (s: string | null) => (s ? formatInstant(s) : '—');
const size = (b: number | null) => (b === null ? '—' : b < 1024 ? `${b} B` : b < 1048576 ? `${(b / 1024).toFixed(1)} KB` : `${(b / 1048576).toFixed(1)} MB`);

/** Settlement runs per date, re-run a date (administrator). */
function SettlementTab({ canAct }: { canAct: boolean }) {
  const { t } = useTranslation('opsRuns');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs]>([dayjs().subtract(30, 'day'), dayjs().subtract(1, 'day')]);
  const [date, setDate] = useState<dayjs.Dayjs | null>(null);
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const list = useQuery(opsQuery(OpsWorkApi.settlementRuns, { from, to }));
  const rerun = useMutation({
    mutationFn: (d: string) => opsRunsApi.rerun(d),
    onSuccess: (r) => {
      void message.success(r.skipped ? t('settlement.skipped', { date: r.date }) : t('settlement.ran', { date: r.date, n: r.txnCount }));
      void qc.invalidateQueries({ queryKey: areaKey(OpsWorkApi.settlementRuns, 2) });
    },
  });
  const by = (r: OpsSettlementRun) => {
    // Who settled it (a re-run that found it settled does not count); dates settled before the
    // history existed were settled by the daily job.
    const a = r.state === 'done' ? r.attempts.find((x) => x.state === 'done') : r.attempts[0];
    if (!a) return t('trigger.job');
    return a.trigger === 'operator' ? `${t('trigger.operator')} · ${a.operator}` : t(`trigger.${a.trigger}`);
  };
  return (
    <>
      <div className="ops-toolbar">
        <DatePicker.RangePicker aria-label={t('settlement.dates')} value={range} allowClear={false} maxDate={dayjs()} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        {canAct ? (
          <>
            <DatePicker aria-label={t('settlement.pickDate')} placeholder={t('settlement.pickDate')} value={date} maxDate={dayjs().subtract(1, 'day')} onChange={setDate} />
            <Popconfirm
              title={t('settlement.confirm', { date: date?.format('YYYY-MM-DD') ?? '' })}
              description={t('settlement.explain')}
              okText={t('settlement.rerun')}
              cancelText={t('cancel')}
              onConfirm={() => date && rerun.mutate(date.format('YYYY-MM-DD'))}
              disabled={!date}
            >
              <Button type="primary" disabled={!date} loading={rerun.isPending}>
                {t('settlement.runDate')}
              </Button>
            </Popconfirm>
          </>
        ) : null}
      </div>
      <Typography.Paragraph type="secondary">
        {t('settlement.last', { date: list.data?.lastRunDate ?? '—' })} {t('settlement.explain')}
      </Typography.Paragraph>
      {/* Exchange rates (issue 46): transactions waiting for a rate. */}
      <FxWaitingAlert waiting={(list.data as { waitingForRate?: OpsFxWaiting } | undefined)?.waitingForRate} />
      <Table<OpsSettlementRun>
        rowKey="date"
        loading={list.isLoading}
        dataSource={list.data?.content ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        expandable={{
          rowExpandable: (r) => r.attempts.length > 0,
          expandedRowRender: (r) => (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={r.attempts}
              columns={[
                { title: t('col.state'), dataIndex: 'state', render: (s: string) => <Tag color={STATE_COLOR[s]}>{t(`state.${s}`)}</Tag> },
                { title: t('col.by'), key: 'by', render: (_, a) => (a.trigger === 'operator' ? `${t('trigger.operator')} · ${a.operator}` : t(`trigger.${a.trigger}`)) },
                { title: t('col.started'), dataIndex: 'startedAt', render: when },
                { title: t('col.ended'), dataIndex: 'endedAt', render: when },
                { title: t('col.txns'), dataIndex: 'txnCount', render: (n: number | null) => n ?? '—' },
                { title: t('col.error'), dataIndex: 'error', render: (e: string | null) => e ?? '' },
              ]}
            />
          ),
        }}
        columns={[
          { title: t('col.date'), dataIndex: 'date', onCell: () => ({ style: { whiteSpace: 'nowrap' } }) },
          { title: t('col.state'), dataIndex: 'state', render: (s: string) => <Tag color={STATE_COLOR[s]}>{t(`state.${s}`)}</Tag> },
          { title: t('col.txns'), dataIndex: 'txnCount', render: (n: number | null) => n ?? '—' },
          { title: t('col.rows'), dataIndex: 'rowCount', render: (n: number | null) => n ?? '—' },
          {
            title: t('col.totals'),
            key: 'totals',
            render: (_, r) =>
              r.totals.map((x) => (
                <div key={x.currency}>
                  {x.currency} {toDecimal(BigInt(x.reconAmount), x.currency)} · {t('col.fee')} {toDecimal(BigInt(x.feeAmount), x.currency)} · {t('col.transfer')}{' '}
                  {toDecimal(BigInt(x.transAmount), x.currency)}
                </div>
              )),
          },
          { title: t('col.ended'), dataIndex: 'finishedAt', render: when },
          { title: t('col.by'), key: 'by', render: (_, r) => by(r) },
          {
            title: t('col.actions'),
            key: 'a',
            render: (_, r) =>
              canAct ? (
                <Popconfirm
                  title={t('settlement.confirm', { date: r.date })}
                  description={t('settlement.explain')}
                  okText={t('settlement.rerun')}
                  cancelText={t('cancel')}
                  onConfirm={() => rerun.mutate(r.date)}
                >
                  <Button size="small" aria-label={t('settlement.rerunDate', { date: r.date })}>
                    {t('settlement.rerun')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </>
  );
}

function ExportsTab() {
  const { t } = useTranslation('opsRuns');
  const [status, setStatus] = useState<ExportStatus | undefined>();
  const list = useQuery(opsQuery(OpsWorkApi.exports, { status }));
  return (
    <>
      <div className="ops-toolbar">
        <Select
          aria-label={t('col.state')}
          placeholder={t('col.state')}
          allowClear
          style={{ width: 160 }}
          value={status}
          onChange={setStatus}
          options={(['queued', 'running', 'ready', 'failed'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))}
        />
      </div>
      <Table<OpsExportRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('col.state'),
            dataIndex: 'status',
            render: (s: string, r) => (
              <>
                <Tag color={STATE_COLOR[s]}>{t(`state.${s}`)}</Tag>
                {r.error ? <div>{r.error}</div> : null}
              </>
            ),
          },
          {
            title: t('col.merchant'),
            dataIndex: 'merName',
            render: (n: string, r) => (
              <>
                {n}
                <br />
                {r.merId}
              </>
            ),
          },
          {
            title: t('col.kind'),
            dataIndex: 'kind',
            render: (k: string, r) => (
              <>
                {k} · {r.format}
                {r.scheduled ? (
                  <>
                    {' '}
                    <Tag>{t('exports.scheduled')}</Tag>
                  </>
                ) : null}
              </>
            ),
          },
          { title: t('col.requestedBy'), dataIndex: 'requestedBy' },
          { title: t('col.created'), dataIndex: 'createdAt', render: when },
          { title: t('col.ended'), dataIndex: 'finishedAt', render: when },
          {
            title: t('col.size'),
            dataIndex: 'sizeBytes',
            render: (b: number | null, r) => (
              <>
                {size(b)}
                {r.rowCount !== null ? <> · {t('exports.rows', { n: r.rowCount })}</> : null}
              </>
            ),
          },
        ]}
      />
    </>
  );
}

function JobsTab({ canAct }: { canAct: boolean }) {
  const { t } = useTranslation('opsRuns');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [status, setStatus] = useState<(typeof JOB_STATUSES)[number] | undefined>('failed');
  const list = useQuery(opsQuery(OpsWorkApi.jobs, { status }));
  const retry = useMutation({
    mutationFn: (id: number) => opsRunsApi.retry(id),
    onSuccess: () => {
      void message.success(t('jobs.retried'));
      void qc.invalidateQueries({ queryKey: apiKey(OpsWorkApi.jobs) });
    },
  });
  return (
    <>
      <div className="ops-toolbar">
        <Select
          aria-label={t('col.state')}
          placeholder={t('col.state')}
          allowClear
          style={{ width: 160 }}
          value={status}
          onChange={setStatus}
          options={(['queued', 'running', 'done', 'failed'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))}
        />
      </div>
      <Table<OpsJobRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('col.job'),
            dataIndex: 'id',
            render: (id: number, r) => (
              <>
                #{id} · {r.kind}
                <br />
                <Typography.Text type="secondary">{r.key ?? ''}</Typography.Text>
              </>
            ),
          },
          { title: t('col.state'), dataIndex: 'status', render: (s: string) => <Tag color={STATE_COLOR[s]}>{t(`state.${s}`)}</Tag> },
          { title: t('col.attempts'), dataIndex: 'attempts' },
          { title: t('col.runAt'), dataIndex: 'runAt', render: when },
          { title: t('col.ended'), dataIndex: 'finishedAt', render: when },
          { title: t('col.error'), dataIndex: 'error', render: (e: string | null) => <span className="ops-runs__error">{e ?? ''}</span> },
          {
            title: t('col.actions'),
            key: 'a',
            render: (_, r) =>
              r.status === 'failed' && canAct ? (
                <Popconfirm title={t('jobs.confirm', { id: r.id })} okText={t('jobs.retry')} cancelText={t('cancel')} onConfirm={() => retry.mutate(r.id)}>
                  <Button size="small" aria-label={t('jobs.retryJob', { id: r.id })}>
                    {t('jobs.retry')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </>
  );
}

function GatewaysTab() {
  const { t } = useTranslation('opsRuns');
  const list = useQuery(opsQuery(OpsWorkApi.gateways, undefined));
  return (
    <Table<OpsGatewayRow>
      rowKey="id"
      loading={list.isLoading}
      dataSource={list.data ?? []}
      pagination={false}
      scroll={{ x: 1000 }}
      columns={[
        {
          title: t('col.connection'),
          dataIndex: 'name',
          render: (n: string, r) => (
            <>
              {n}
              <br />
              <Typography.Text type="secondary">{r.id}</Typography.Text> {r.enabled ? null : <Tag>{t('gateways.disabled')}</Tag>}
            </>
          ),
        },
        { title: t('col.merchants'), dataIndex: 'merchants', render: (m: string[]) => m.join(', ') },
        { title: t('gateways.keys'), dataIndex: 'activeKeys' },
        {
          title: t('col.txns'),
          dataIndex: 'txnCount',
          render: (n: number, r) => (
            <>
              {n}
              <br />
              {when(r.lastTxnAt)}
            </>
          ),
        },
        {
          title: t('gateways.lastImport'),
          key: 'imp',
          render: (_, r) =>
            r.lastImport ? (
              <>
                {r.lastImport.fileName} <Tag color={STATE_COLOR[r.lastImport.status]}>{t(`state.${r.lastImport.status}`)}</Tag>
                <div>{t('gateways.counts', { read: r.lastImport.rowsRead, accepted: r.lastImport.accepted, duplicate: r.lastImport.duplicate, rejected: r.lastImport.rejected })}</div>
                <div>{when(r.lastImport.finishedAt ?? r.lastImport.startedAt)}</div>
              </>
            ) : (
              '—'
            ),
        },
        { title: t('gateways.imports'), dataIndex: 'imports' },
        { title: t('gateways.differences'), dataIndex: 'differences' },
      ]}
    />
  );
}

/** Runs and jobs (issue 26, decision 045): settlement runs, the export queue, failed jobs, gateway imports. */
export default function RunsPage() {
  const { t } = useTranslation('opsRuns');
  const me = useOperator();
  const canAct = mayDo(me, OPS_RUNS_WRITE_ROLES);
  const [tab, setTab] = useState('settlement');
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('title')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'settlement', label: t('tabs.settlement'), children: <SettlementTab canAct={canAct} /> },
          { key: 'exports', label: t('tabs.exports'), children: <ExportsTab /> },
          { key: 'jobs', label: t('tabs.jobs'), children: <JobsTab canAct={canAct} /> },
          { key: 'gateways', label: t('tabs.gateways'), children: <GatewaysTab /> },
        ]}
      />
    </>
  );
}
