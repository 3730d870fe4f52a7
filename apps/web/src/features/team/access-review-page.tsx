import { useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, Grid, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ReviewRecord, type ReviewRecordItem, type ReviewUser } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { NoAccessResult } from '../errors/no-access-result';
import { RequestError } from '../../lib/http';
import { useUser } from '../../lib/session';
import { formatPlatform } from '../../lib/time';
import { useApp } from '../../app/lazy-app';
import { completeReview, decideReview, useReview, useReviewDetail, useReviewHistory } from './api/access';
import { PermissionsByArea } from './components/permissions-by-area';
import { STATUS_COLOR } from './user.columns';
import { teamQueries } from './api/team-queries';

const DECISION_COLOR = { CONFIRMED: 'success', DISABLED: 'warning', REMOVED: 'error' } as const;

/** /merchant/team/review: the quarterly access review (issue 28 item 3, decision 048). */
export function AccessReviewPage() {
  const me = useUser();
  return me.userAdmin ? <AccessReview /> : <NoAccessResult />;
}

function AccessReview() {
  const { t } = useTranslation(['access', 'team']);
  const { message, modal } = useApp();
  const me = useUser();
  const qc = useQueryClient();
  const review = useReview(me.merId);
  const [busy, setBusy] = useState<string | null>(null);
  const [historyPage, setHistoryPage] = useState(0);
  const history = useReviewHistory(me.merId, historyPage);
  const [viewing, setViewing] = useState<number | null>(null);
  const refresh = () => qc.invalidateQueries({ predicate: teamQueries });
  // Columns stay in place while the table scrolls sideways on a wide screen only (on a phone two fixed columns would fill it).
  const wide = !!Grid.useBreakpoint().md;

  const decide = async (u: ReviewUser, decision: 'CONFIRM' | 'DISABLE' | 'REMOVE') => {
    setBusy(`${u.userId}:${decision}`);
    try {
      await decideReview(me.merId, u.userId, decision);
      message.success(t(`decided.${decision}`, { name: u.userName }));
      await refresh();
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : t('failed'));
    } finally {
      setBusy(null);
    }
  };
  const confirmRevoke = (u: ReviewUser, decision: 'DISABLE' | 'REMOVE') =>
    modal.confirm({
      title: t(decision === 'DISABLE' ? 'confirmDisable' : 'confirmRemove', { name: u.userName }),
      okText: t(decision === 'DISABLE' ? 'action.disable' : 'action.remove'),
      okButtonProps: { danger: decision === 'REMOVE' },
      cancelText: t('team:form.cancel'),
      onOk: () => decide(u, decision),
    });

  const complete = async () => {
    setBusy('complete');
    try {
      await completeReview(me.merId);
      message.success(t('completed'));
      await refresh();
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : t('failed'));
    } finally {
      setBusy(null);
    }
  };

  const columns: ColumnsType<ReviewUser> = useMemo(
    () => [
      {
        title: t('column.user'),
        dataIndex: 'userName',
        width: 200,
        fixed: wide ? 'left' : undefined,
        render: (v: string, r) => (
          <Space direction="vertical" size={0}>
            <Space size={4}>
              <Typography.Text strong>{v}</Typography.Text>
              {r.self && <Tag>{t('team:you')}</Tag>}
            </Space>
            <Typography.Text type="secondary">{r.email}</Typography.Text>
          </Space>
        ),
      },
      { title: t('column.role'), dataIndex: 'role', width: 130, render: (v: string | null, r) => r.roleName ?? (v ? t(`team:role.${v}.name`) : '—') },
      { title: t('column.permissions'), dataIndex: 'permissions', width: wide ? 360 : 220, render: (v: string[]) => <PermissionsByArea codes={v} compact={!wide} /> },
      { title: t('column.merchants'), dataIndex: 'merIds', width: 170, render: (v: string[]) => v.join(', ') },
      {
        title: t('column.lastLogin'),
        dataIndex: 'lastLoginTime',
        width: 170,
        render: (v: string | null, r) => (
          <Space direction="vertical" size={0}>
            <span>{v ? formatPlatform(v) : t('team:never')}</span>
            <Typography.Text type="secondary">{t('inactiveFor', { count: r.inactiveDays })}</Typography.Text>
          </Space>
        ),
      },
      { title: t('column.accessEnds'), dataIndex: 'accessEndsOn', width: 120, render: (v: string | null) => v ?? t('noEnd') },
      { title: t('column.status'), dataIndex: 'status', width: 110, render: (v: ReviewUser['status']) => <Tag color={STATUS_COLOR[v]}>{t(`team:status.${v}`)}</Tag> },
      {
        title: t('column.decision'),
        key: 'decision',
        width: 230,
        fixed: wide ? 'right' : undefined,
        render: (_: unknown, r) =>
          r.decision ? (
            <Space direction="vertical" size={0}>
              <Tag color={DECISION_COLOR[r.decision]}>{t(`decision.${r.decision}`)}</Tag>
              <Typography.Text type="secondary">{t('decidedBy', { name: r.decidedBy, time: formatPlatform(r.decideTime) })}</Typography.Text>
            </Space>
          ) : (
            <Space size={0} wrap>
              <Button type="link" size="small" loading={busy === `${r.userId}:CONFIRM`} onClick={() => void decide(r, 'CONFIRM')} aria-label={`${t('action.confirm')} ${r.userName}`}>
                {t('action.confirm')}
              </Button>
              {!r.self && r.manageable && (
                <>
                  {r.status !== 'DISABLED' && (
                    <Button type="link" size="small" onClick={() => confirmRevoke(r, 'DISABLE')} aria-label={`${t('action.disable')} ${r.userName}`}>
                      {t('action.disable')}
                    </Button>
                  )}
                  <Button type="link" size="small" danger onClick={() => confirmRevoke(r, 'REMOVE')} aria-label={`${t('action.remove')} ${r.userName}`}>
                    {t('action.remove')}
                  </Button>
                </>
              )}
            </Space>
          ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, busy, wide],
  );

  const historyColumns: ColumnsType<ReviewRecord> = [
    { title: t('history.quarter'), dataIndex: 'quarter', width: 100 },
    { title: t('history.started'), key: 'started', width: 220, render: (_: unknown, r) => t('byAt', { name: r.startedBy, time: formatPlatform(r.startTime) }) },
    {
      title: t('history.completed'),
      key: 'completed',
      width: 220,
      render: (_: unknown, r) => (r.completedBy && r.completeTime ? t('byAt', { name: r.completedBy, time: formatPlatform(r.completeTime) }) : <Tag>{t('history.open')}</Tag>),
    },
    { title: t('history.result'), key: 'result', width: 260, render: (_: unknown, r) => t('history.counts', { confirmed: r.confirmed, disabled: r.disabled, removed: r.removed }) },
    {
      title: t('team:column.actions'),
      key: 'view',
      width: 90,
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => setViewing(r.id)} aria-label={`${t('history.view')} ${r.quarter} #${r.id}`}>
          {t('history.view')}
        </Button>
      ),
    },
  ];

  const s = review.data;
  const undecided = s?.users.filter((u) => !u.decision).length ?? 0;
  return (
    <PageContainer card={false} back>
      <Flex vertical gap={16}>
        <Card>
          {s && (
            <Flex vertical gap={12}>
              {s.due ? (
                <Alert
                  type="warning"
                  showIcon
                  message={t('due', { quarter: s.quarter })}
                  description={s.lastCompleteTime ? t('lastDone', { time: formatPlatform(s.lastCompleteTime) }) : t('neverDone')}
                />
              ) : (
                <Alert type="success" showIcon message={t('doneThisQuarter', { quarter: s.quarter, time: formatPlatform(s.lastCompleteTime) })} />
              )}
              <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                {t('intro', { days: s.inactiveDays })}
              </Typography.Paragraph>
              {s.open && <Typography.Text>{t('openBy', { name: s.open.startedBy, time: formatPlatform(s.open.startTime) })}</Typography.Text>}
            </Flex>
          )}
          <Table<ReviewUser>
            style={{ marginTop: 16 }}
            rowKey="userId"
            columns={columns}
            dataSource={s?.users ?? []}
            loading={review.isLoading}
            pagination={false}
            scroll={{ x: 1490 }}
            size="middle"
            aria-label={t('tableLabel')}
          />
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginTop: 16 }}>
            <Typography.Text type="secondary">{undecided > 0 ? t('left', { count: undecided }) : t('allDecided')}</Typography.Text>
            <Button type="primary" disabled={!s || undecided > 0 || (!s.open && s.users.length > 0)} loading={busy === 'complete'} onClick={() => void complete()}>
              {t('complete')}
            </Button>
          </Flex>
        </Card>
        <Card
          title={
            <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
              {t('history.title')}
            </Typography.Title>
          }
        >
          <Table<ReviewRecord>
            rowKey="id"
            columns={historyColumns}
            dataSource={history.data?.content ?? []}
            loading={history.isLoading}
            locale={{ emptyText: <Typography.Text type="secondary">{t('history.empty')}</Typography.Text> }}
            pagination={{ current: historyPage + 1, pageSize: 10, total: history.data?.totalElements ?? 0, onChange: (p) => setHistoryPage(p - 1), hideOnSinglePage: true }}
            scroll={{ x: 890 }}
            size="middle"
            aria-label={t('history.title')}
          />
        </Card>
      </Flex>
      <ReviewRecordDialog id={viewing} onClose={() => setViewing(null)} />
    </PageContainer>
  );
}

function ReviewRecordDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation(['access', 'team']);
  const detail = useReviewDetail(id);
  const columns: ColumnsType<ReviewRecordItem> = [
    { title: t('column.user'), dataIndex: 'userName', width: 150 },
    { title: t('column.decision'), dataIndex: 'decision', width: 120, render: (v: ReviewRecordItem['decision']) => <Tag color={DECISION_COLOR[v]}>{t(`decision.${v}`)}</Tag> },
    { title: t('history.decidedBy'), key: 'by', width: 200, render: (_: unknown, r) => t('byAt', { name: r.decidedBy, time: formatPlatform(r.decideTime) }) },
    { title: t('column.role'), dataIndex: 'role', width: 120, render: (v: string | null, r) => r.roleName ?? (v ? t(`team:role.${v}.name`) : '') },
    { title: t('column.permissions'), dataIndex: 'permissions', width: 320, render: (v: string[]) => <PermissionsByArea codes={v} /> },
    { title: t('column.merchants'), dataIndex: 'merIds', width: 160, render: (v: string[]) => v.join(', ') },
    { title: t('column.lastLogin'), dataIndex: 'lastLoginTime', width: 160, render: (v: string | null) => (v ? formatPlatform(v) : t('team:never')) },
  ];
  const r = detail.data?.review;
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} width={1000} title={r ? t('history.detailTitle', { quarter: r.quarter, id: r.id }) : t('history.title')} destroyOnHidden>
      <Table<ReviewRecordItem>
        rowKey="userId"
        columns={columns}
        dataSource={detail.data?.items ?? []}
        loading={detail.isLoading}
        pagination={false}
        scroll={{ x: 1230 }}
        size="small"
        aria-label={t('history.itemsLabel')}
      />
    </Modal>
  );
}
