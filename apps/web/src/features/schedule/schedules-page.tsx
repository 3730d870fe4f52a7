import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Grid, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { usePageParams } from '../../lib/paging';
import { formatInstant } from '../../lib/time';
import { useDeleteSchedule, usePauseSchedule, useSchedules, useSendNow } from './api/schedules';
import { ScheduleDialog, type ScheduleTarget } from './schedule-dialog';
import { filterSummary, kindKey } from './schedule-form';
import { useApp } from '../../app/lazy-app';

const RESULT_COLOR = { sent: 'success', failed: 'error' } as const;

/** "Daily at 08:00", "Every Monday at 08:00", "Monthly on day 31 at 08:00". */
function useWhen() {
  const { t } = useTranslation('schedule');
  return (s: Schedule) => {
    const day = s.frequency === 'weekly' ? t(`weekday.${s.weekday}`) : String(s.monthDay ?? '');
    return t(`when.${s.frequency}`, { time: s.time, day });
  };
}

/** /report/schedules: the user's scheduled reports, with next and last run, send now, pause, edit, delete. */
export function SchedulesPage() {
  const { t } = useTranslation('schedule');
  const { message } = useApp();
  const { page, size, pagination } = usePageParams();
  const { data, isFetching, refetch } = useSchedules(page, size);
  const pause = usePauseSchedule();
  const del = useDeleteSchedule();
  const sendNow = useSendNow();
  const when = useWhen();
  const [editing, setEditing] = useState<ScheduleTarget | null>(null);
  // Under 768 px: the report (with when and next run under it) and the actions, no sideways scroll.
  const narrow = !Grid.useBreakpoint().md;

  const columns: ColumnsType<Schedule> = [
    {
      key: 'report',
      title: t('col.report'),
      width: narrow ? undefined : 210,
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{t(kindKey(s.kind))}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {filterSummary(s.params).join(' · ')}
          </Typography.Text>
          {narrow && <span>{when(s)}</span>}
          {narrow && (s.paused ? <Tag>{t('paused')}</Tag> : <Typography.Text type="secondary" style={{ fontSize: 12 }}>{`${t('col.nextRun')}: ${formatInstant(s.nextRunAt)}`}</Typography.Text>)}
        </Space>
      ),
    },
    {
      key: 'when',
      title: t('col.when'),
      width: 230,
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <span>{when(s)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s.timeZone} · {s.format.toUpperCase()}
          </Typography.Text>
        </Space>
      ),
    },
    { key: 'recipients', title: t('col.recipients'), width: 220, render: (_, s) => <span style={{ wordBreak: 'break-all' }}>{s.recipients.join(', ')}</span> },
    {
      key: 'nextRun',
      title: t('col.nextRun'),
      width: 160,
      render: (_, s) => (s.paused ? <Tag>{t('paused')}</Tag> : formatInstant(s.nextRunAt)),
    },
    {
      key: 'lastRun',
      title: t('col.lastRun'),
      width: 190,
      render: (_, s) =>
        s.lastRunAt ? (
          <Space size={4} wrap>
            <span>{formatInstant(s.lastRunAt)}</span>
            {s.lastResult && (
              <Tooltip title={s.lastError}>
                <Tag color={RESULT_COLOR[s.lastResult]}>{t(`result.${s.lastResult}`)}</Tag>
              </Tooltip>
            )}
            {s.lastFileId && <Link to="/report/file">{t('action.openFile')}</Link>}
          </Space>
        ) : (
          '—'
        ),
    },
    {
      key: 'actions',
      title: t('col.actions'),
      width: narrow ? 150 : 200,
      render: (_, s) => (
        <Space size={0} wrap>
          <Button
            size="small"
            type="link"
            icon={<SendOutlined />}
            onClick={async () => {
              await sendNow.mutateAsync(s.id);
              message.success(t('msg.sending'));
              setTimeout(() => void refetch(), 3000);
            }}
          >
            {t('action.sendNow')}
          </Button>
          <Button
            size="small"
            type="link"
            icon={s.paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
            onClick={async () => {
              await pause.mutateAsync({ id: s.id, paused: !s.paused });
              message.success(t(s.paused ? 'msg.resumed' : 'msg.paused'));
            }}
          >
            {t(s.paused ? 'action.resume' : 'action.pause')}
          </Button>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ kind: s.kind, params: s.params, schedule: s })}>
            {t('action.edit')}
          </Button>
          <Popconfirm
            title={t('action.deleteConfirm')}
            okText={t('action.delete')}
            cancelText={t('dialog.cancel')}
            onConfirm={async () => {
              await del.mutateAsync(s.id);
              message.success(t('msg.deleted'));
            }}
          >
            {/* antd's danger red (#ff4d4f) is 3.26:1 on white; the Tag red of the theme is 5.9:1 (WCAG 1.4.3). */}
            <Button size="small" type="link" icon={<DeleteOutlined />} style={{ color: '#cf1322' }}>
              {t('action.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
          {t('action.refresh')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
      <Table<Schedule>
        rowKey="id"
        size="middle"
        columns={narrow ? columns.filter((c) => c.key === 'report' || c.key === 'actions') : columns}
        dataSource={data?.content ?? []}
        loading={isFetching && !data}
        scroll={narrow ? undefined : { x: 1100 }}
        // The empty text in the theme's secondary colour (antd's placeholder grey is 1.8:1 on white).
        locale={{ emptyText: <Typography.Text type="secondary">{t('empty')}</Typography.Text> }}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
      />
      <ScheduleDialog target={editing} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}
