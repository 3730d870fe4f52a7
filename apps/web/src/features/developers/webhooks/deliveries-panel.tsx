import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button, DatePicker, Flex, Grid, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { WebhooksApi, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from '@portal/contract';
import { formatInstant } from '../../../lib/time';
import { useApp } from '../../../app/lazy-app';
import { useDeliveries, useDeliveryDetail, useResend, useResendFailed } from './api/webhooks';
import { eventKey } from './endpoint-dialog';
import { apiKey } from '../../../lib/api-query';

const STATE_COLOR = { pending: 'processing', succeeded: 'success', failed: 'error' } as const;
const OUTCOME_COLOR = { sending: 'processing', succeeded: 'success', failed: 'error', refused: 'warning' } as const;

/** One delivery's attempts (newest first) and the body as sent. */
function DeliveryAttempts({ id }: { id: number }) {
  const { t } = useTranslation('webhooks');
  const narrow = !Grid.useBreakpoint().md;
  const { data } = useDeliveryDetail(id);
  if (!data) return null;
  const columns: ColumnsType<WebhookAttempt> = [
    { key: 'at', title: t('col.time'), width: 150, render: (_, a) => formatInstant(a.at, 'YYYY-MM-DD HH:mm:ss') },
    {
      key: 'outcome',
      title: t('col.outcome'),
      width: 150,
      render: (_, a) => (
        <Space size={4} wrap>
          <Tag color={OUTCOME_COLOR[a.outcome]}>{t(`outcome.${a.outcome}`)}</Tag>
          {a.manual && <Tag>{t('deliveries.manual')}</Tag>}
        </Space>
      ),
    },
    { key: 'status', title: t('col.httpStatus'), width: 90, render: (_, a) => a.status ?? t('never') },
    { key: 'latency', title: t('col.latency'), width: 90, render: (_, a) => (a.latencyMs === null ? t('never') : t('ms', { n: a.latencyMs })) },
    { key: 'next', title: t('col.nextRetry'), width: 150, render: (_, a) => (a.nextRetryAt ? formatInstant(a.nextRetryAt, 'YYYY-MM-DD HH:mm:ss') : t('never')) },
    {
      key: 'response',
      title: t('col.response'),
      render: (_, a) => (
        <Typography.Text style={{ fontSize: 12, wordBreak: 'break-all' }} ellipsis={{ tooltip: a.response ?? a.error }}>
          {a.error ?? a.response ?? ''}
        </Typography.Text>
      ),
    },
  ];
  return (
    <Flex vertical gap={8} style={{ minWidth: 0 }}>
      <Typography.Text strong>{t('deliveries.attemptList')}</Typography.Text>
      {narrow ? (
        // Under 768 px: each attempt as a few lines (a table would push the log sideways).
        <Flex vertical gap={8}>
          {data.attemptList.map((a) => (
            <Flex key={a.id} vertical gap={2} style={{ borderBottom: '1px solid #f0f0f0', paddingBottom: 6 }}>
              <Space size={4} wrap>
                <span>{formatInstant(a.at, 'YYYY-MM-DD HH:mm:ss')}</span>
                <Tag color={OUTCOME_COLOR[a.outcome]}>{t(`outcome.${a.outcome}`)}</Tag>
                {a.manual && <Tag>{t('deliveries.manual')}</Tag>}
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {`${t('col.httpStatus')} ${a.status ?? t('never')} · ${t('col.latency')} ${a.latencyMs === null ? t('never') : t('ms', { n: a.latencyMs })}`}
                {a.nextRetryAt ? ` · ${t('col.nextRetry')} ${formatInstant(a.nextRetryAt, 'YYYY-MM-DD HH:mm:ss')}` : ''}
              </Typography.Text>
              {(a.error ?? a.response) && (
                <Typography.Text style={{ fontSize: 12, wordBreak: 'break-all' }} ellipsis={{ tooltip: a.error ?? a.response }}>
                  {a.error ?? a.response}
                </Typography.Text>
              )}
            </Flex>
          ))}
        </Flex>
      ) : (
        <Table<WebhookAttempt> rowKey="id" size="small" columns={columns} dataSource={data.attemptList} pagination={false} scroll={{ x: 760 }} />
      )}
      <Typography.Text strong>{t('deliveries.body')}</Typography.Text>
      <Typography.Paragraph code copyable style={{ wordBreak: 'break-all', overflowWrap: 'anywhere', fontSize: 12, marginBottom: 0 }}>
        {data.body}
      </Typography.Paragraph>
    </Flex>
  );
}

/** The delivery log of one endpoint: filter by state or event id, resend one, resend the failed since a time. */
export function DeliveriesPanel({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const { message } = useApp();
  const narrow = !Grid.useBreakpoint().md;
  // The log's filters and page live in the URL beside ?endpoint= (reload and back keep them).
  const [params, setParams] = useSearchParams();
  const state = (['pending', 'succeeded', 'failed'] as const).find((x) => x === params.get('state'));
  const eventId = params.get('event') ?? '';
  const page = Math.max(Number(params.get('page')) || 0, 0);
  const size = [10, 30, 50, 100].includes(Number(params.get('size'))) ? Number(params.get('size')) : 10;
  const update = (patch: Record<string, string | number | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined || v === '' || (k === 'page' && v === 0) || (k === 'size' && v === 10)) next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      },
      { replace: true },
    );
  const [since, setSince] = useState<Dayjs | null>(() => dayjs().subtract(1, 'day').startOf('hour'));
  const validEvent = /^evt_[0-9a-f]{32}$/.test(eventId.trim()) ? eventId.trim() : undefined;
  const { data, isFetching } = useDeliveries({ id: endpoint.id, state, eventId: validEvent, page, size });
  // A delivery of the log that changed state (delivered, failed) changes the endpoint's counts: the
  // endpoint list is asked again then, not left saying "Retrying" (issue 53).
  const qc = useQueryClient();
  const states = data?.content.map((d) => `${d.id}:${d.state}`).join(',');
  const seen = useRef(states);
  useEffect(() => {
    if (states !== undefined && seen.current !== undefined && states !== seen.current) void qc.invalidateQueries({ queryKey: apiKey(WebhooksApi.endpoints) });
    seen.current = states;
  }, [states, qc]);
  // A refused change (the endpoint was turned off meanwhile…) is shown by the request client's toast;
  // its rejection ends here, not as an uncaught error of the page (issue 53).
  const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
  const resend = useResend();
  const resendFailed = useResendFailed();

  const columns: ColumnsType<WebhookDelivery> = [
    {
      key: 'event',
      title: t('col.event'),
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{t(eventKey(d.type))}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }} copyable={{ text: d.eventId }}>
            {d.eventId}
          </Typography.Text>
          {narrow && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatInstant(d.createdAt, 'YYYY-MM-DD HH:mm:ss')}
            </Typography.Text>
          )}
          {narrow && <Tag color={STATE_COLOR[d.state]}>{t(`state.${d.state}`)}</Tag>}
        </Space>
      ),
    },
    { key: 'time', title: t('col.time'), width: 160, render: (_, d) => formatInstant(d.createdAt, 'YYYY-MM-DD HH:mm:ss') },
    {
      key: 'state',
      title: t('col.state'),
      width: 120,
      render: (_, d) => <Tag color={STATE_COLOR[d.state]}>{t(`state.${d.state}`)}</Tag>,
    },
    { key: 'attempts', title: t('col.attempts'), width: 90, render: (_, d) => d.attempts },
    { key: 'lastStatus', title: t('col.lastStatus'), width: 110, render: (_, d) => d.lastStatus ?? t('never') },
    { key: 'next', title: t('col.nextRetry'), width: 160, render: (_, d) => (d.nextAttemptAt ? formatInstant(d.nextAttemptAt, 'YYYY-MM-DD HH:mm:ss') : t('never')) },
    {
      key: 'actions',
      title: t('col.actions'),
      width: 110,
      render: (_, d) => (
        <Button size="small" type="link" icon={<RedoOutlined />} disabled={!endpoint.enabled} onClick={() => quietly(resend.mutateAsync(d.id).then(() => message.success(t('msg.resent'))))}>
          {t('action.resend')}
        </Button>
      ),
    },
  ];
  // Under 768 px: the event (with its time and state under it) and the resend button.
  const shown = narrow ? columns.filter((c) => c.key === 'event' || c.key === 'actions').map((c) => (c.key === 'actions' ? { ...c, width: 96 } : c)) : columns;

  return (
    <Flex vertical gap={12}>
      <Typography.Title level={2} style={{ fontSize: 16, margin: 0, wordBreak: 'break-all' }}>
        {t('deliveries.title', { url: endpoint.url })}
      </Typography.Title>
      <Flex wrap gap={8} align="center">
        <Select
          aria-label={t('deliveries.filterState')}
          style={{ width: 140 }}
          value={state ?? ''}
          onChange={(v) => update({ state: v || undefined, page: 0 })}
          options={[{ value: '', label: t('state.all') }, ...(['pending', 'succeeded', 'failed'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))]}
        />
        <Input
          aria-label={t('deliveries.filterEvent')}
          placeholder={t('deliveries.filterEvent')}
          allowClear
          style={{ width: narrow ? '100%' : 320 }}
          value={eventId}
          onChange={(e) => update({ event: e.target.value, page: 0 })}
        />
        <Space.Compact>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={since}
            onChange={setSince}
            aria-label={t('deliveries.since')}
            placeholder={t('deliveries.since')}
            allowClear={false}
          />
          <Button
            disabled={!endpoint.enabled || !since}
            loading={resendFailed.isPending}
            onClick={() => quietly(resendFailed.mutateAsync({ id: endpoint.id, since: since!.toISOString() }).then((r) => message.success(t('msg.resentFailed', { count: r.count }))))}
          >
            {t('action.resendFailed')}
          </Button>
        </Space.Compact>
      </Flex>
      <Table<WebhookDelivery>
        rowKey="id"
        size="middle"
        columns={shown}
        dataSource={data?.content ?? []}
        loading={isFetching && !data}
        scroll={narrow ? undefined : { x: 900 }}
        expandable={{ expandedRowRender: (d) => <DeliveryAttempts id={d.id} /> }}
        locale={{ emptyText: <Typography.Text type="secondary">{t('deliveries.none')}</Typography.Text> }}
        pagination={{
          current: page + 1,
          pageSize: size,
          total: data?.totalElements ?? 0,
          pageSizeOptions: [10, 30, 50, 100],
          showSizeChanger: true,
          showTotal: (n) => t('deliveries.total', { count: n }),
          onChange: (p, s) => update({ page: s !== size ? 0 : p - 1, size: s }),
        }}
      />
    </Flex>
  );
}
