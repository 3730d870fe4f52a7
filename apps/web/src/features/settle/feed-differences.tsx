import { useEffect, useRef, useState } from 'react';
import { Alert, Card, DatePicker, Form, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { HomeApi, toDecimal, type FeedDifference } from '@portal/contract';
import { zoneNow } from '../../lib/time';
import { apiQuery } from '../../lib/api-query';
export type { FeedDifference } from '@portal/contract';

const KIND_COLOR: Record<string, string> = { missing: 'red', extra: 'orange', amount: 'gold', status: 'blue', unreported: 'volcano' };

type Money = { currency?: string; amount?: number };
const money = (m: Money | undefined) => (m && typeof m.amount === 'number' && m.currency ? `${toDecimal(m.amount, m.currency)} ${m.currency}` : '—');

/**
 * The gateway feed's reconciliation for a day (issue 25 §3), beside the manual reconciliation: the
 * transactions of the user's merchants that the gateway reported and the ledger lacks (missing), that
 * the ledger has and the gateway never reported (extra), or whose amount or result differ — what
 * the gateway said beside what the portal holds; and the refunds, voids and charges the portal itself
 * made (answered by the gateway adapter or the sandbox) that the gateway never reported (unreported,
 * issue 46).
 */
export function FeedDifferences() {
  const { t } = useTranslation('settleDetail');
  const [day, setDay] = useState<Dayjs>(() => zoneNow().subtract(1, 'day'));
  const date = day.format('YYYY-MM-DD');
  // The sideways-scrolling region takes the keyboard focus (WCAG 2.1.1), named after the card, as the reports' tables do.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    frame.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body').forEach((el) => {
      el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', t('feed.title'));
    });
  });
  const list = useQuery(apiQuery(HomeApi.feedDifferences, { date }));

  const said = (d: FeedDifference) => {
    const x = d.detail as Record<string, unknown>;
    if (d.kind === 'amount') return { gateway: money(x.reported as Money), portal: money(x.ledger as Money) };
    if (d.kind === 'status') return { gateway: String(x.reported ?? '—'), portal: String(x.ledger ?? '—') };
    const row = `${String(x.tranType ?? '')} ${money({ currency: x.currency as string, amount: x.amount as number })} · ${String(x.gwResponse ?? '')}`;
    if (d.kind === 'unreported') {
      const op = t(`feed.operations.${String(x.operation)}`, { defaultValue: String(x.operation ?? '') });
      const by = t(`feed.acquirers.${String(x.acquirer)}`, { defaultValue: String(x.acquirer ?? '') });
      return { gateway: '—', portal: `${op}: ${row} (${by})` };
    }
    return d.kind === 'missing' ? { gateway: row, portal: '—' } : { gateway: '—', portal: row };
  };

  const cols = [
    {
      key: 'kind',
      title: t('feed.kind'),
      width: 150,
      render: (_: unknown, d: FeedDifference) => <Tag color={KIND_COLOR[d.kind] ?? 'default'}>{t(`feed.kinds.${d.kind}`, { defaultValue: d.kind })}</Tag>,
    },
    { key: 'gwTransId', title: t('feed.gwTransId'), dataIndex: 'gwTransId', width: 230, render: (v: string | null) => v ?? '—' },
    { key: 'merId', title: t('feed.merId'), dataIndex: 'merId', width: 160, render: (v: string | null) => v ?? '—' },
    { key: 'gateway', title: t('feed.gateway'), width: 220, render: (_: unknown, d: FeedDifference) => said(d).gateway },
    { key: 'portal', title: t('feed.portal'), width: 220, render: (_: unknown, d: FeedDifference) => said(d).portal },
    { key: 'connection', title: t('feed.connection'), dataIndex: 'connectionId', width: 140 },
  ];

  return (
    <Card title={t('feed.title')} style={{ marginBottom: 16 }} data-testid="feed-differences">
      <Typography.Paragraph type="secondary">{t('feed.help')}</Typography.Paragraph>
      <Form layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item label={t('feed.date')}>
          <DatePicker value={day} allowClear={false} aria-label={t('feed.date')} disabledDate={(d) => d.isAfter(zoneNow(), 'day')} onChange={(d) => d && setDay(d)} />
        </Form.Item>
      </Form>
      {list.isError ? (
        <Alert type="error" showIcon title={t('feed.error')} />
      ) : (
        <div ref={frame}>
          <Table<FeedDifference>
            rowKey="id"
            size="small"
            loading={list.isPending}
            columns={cols}
            dataSource={list.data ?? []}
            scroll={{ x: 1120 }}
            pagination={{ pageSize: 10, showSizeChanger: false }}
            locale={{ emptyText: <Typography.Text type="secondary">{t('feed.none', { date })}</Typography.Text> }}
          />
        </div>
      )}
    </Card>
  );
}
