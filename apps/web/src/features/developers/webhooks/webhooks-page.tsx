import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Flex, Grid, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, KeyOutlined, StopOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined, ReloadOutlined, SendOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { WebhookEndpoint, WebhookSecret } from '@portal/contract';
import { PageContainer } from '../../../components/page-container';
import { formatInstant } from '../../../lib/time';
import { useApp } from '../../../app/lazy-app';
import { useEndPreviousSecret, useEndpoints, useRotateSecret, useSendTest, useSetEnabled } from './api/webhooks';
import { EndpointDialog, eventKey } from './endpoint-dialog';
import { SecretDialog } from './secret-dialog';
import { DeliveriesPanel } from './deliveries-panel';

/**
 * /developers/webhooks (issue 31): the endpoints of the user's merchants — add, edit, rotate the
 * secret (and end the old one's overlap at once), disable / enable, send a test event — and the delivery log of the one chosen (in the URL:
 * ?endpoint=ID), with resend.
 */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { message } = useApp();
  const narrow = !Grid.useBreakpoint().md;
  const { data, isFetching, refetch } = useEndpoints();
  const rotate = useRotateSecret();
  const endPrevious = useEndPreviousSecret();
  const setEnabled = useSetEnabled();
  const sendTest = useSendTest();
  const [params, setParams] = useSearchParams();
  const chosen = data?.find((e) => String(e.id) === params.get('endpoint')) ?? null;
  const [dialog, setDialog] = useState<{ open: boolean; editing: WebhookEndpoint | null }>({ open: false, editing: null });
  const [secret, setSecret] = useState<WebhookSecret | null>(null);

  // A refused change (turned off in another tab, already rotated…) is shown by the request client's
  // toast; its rejection ends here, not as an uncaught error of the page (issue 53).
  const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
  const status = (e: WebhookEndpoint) =>
    e.enabled ? (
      <Tag color="success">{t('status.enabled')}</Tag>
    ) : (
      <Tag color={e.disabledReason === 'failing' ? 'error' : 'default'}>{t(e.disabledReason === 'failing' ? 'status.disabledFailing' : 'status.disabledUser')}</Tag>
    );

  const columns: ColumnsType<WebhookEndpoint> = [
    {
      key: 'url',
      title: t('col.url'),
      render: (_, e) => (
        <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ wordBreak: 'break-all' }}>
            {e.url}
          </Typography.Text>
          {e.description && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {e.description}
            </Typography.Text>
          )}
          {/* After a rotation the old secret still signs (a second v1) until then, unless ended at once (issue 47). */}
          {e.previousSecretUntil && (
            <Typography.Text type="warning" style={{ fontSize: 12 }}>
              {t('status.previousUntil', { time: formatInstant(e.previousSecretUntil) })}
            </Typography.Text>
          )}
          {narrow && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {e.merId}
            </Typography.Text>
          )}
          {narrow && status(e)}
        </Space>
      ),
    },
    { key: 'merchant', title: t('col.merchant'), width: 150, render: (_, e) => e.merId },
    {
      key: 'events',
      title: t('col.events'),
      width: 220,
      render: (_, e) => (
        <Tooltip title={e.events.map((x) => t(eventKey(x))).join(', ')}>
          <span>{e.events.length <= 2 ? e.events.map((x) => t(eventKey(x))).join(', ') : `${t(eventKey(e.events[0]))} +${e.events.length - 1}`}</span>
        </Tooltip>
      ),
    },
    {
      key: 'status',
      title: t('col.status'),
      width: 170,
      render: (_, e) => (
        <Space size={4} wrap>
          {status(e)}
          {e.pending > 0 && <Tag color="processing">{`${t('state.pending')} ${e.pending}`}</Tag>}
          {e.failed > 0 && <Tag color="error">{`${t('state.failed')} ${e.failed}`}</Tag>}
        </Space>
      ),
    },
    { key: 'created', title: t('col.created'), width: 150, render: (_, e) => formatInstant(e.createdAt) },
    {
      key: 'actions',
      title: t('col.actions'),
      width: narrow ? 140 : 290,
      render: (_, e) => (
        <Space size={0} wrap>
          <Button size="small" type="link" icon={<UnorderedListOutlined />} onClick={() => setParams({ endpoint: String(e.id) })} aria-pressed={chosen?.id === e.id}>
            {t('action.deliveries')}
          </Button>
          <Button
            size="small"
            type="link"
            icon={<SendOutlined />}
            disabled={!e.enabled}
            onClick={() =>
              quietly(
                sendTest.mutateAsync(e.id).then(() => {
                  message.success(t('msg.testQueued'));
                  setParams({ endpoint: String(e.id) });
                }),
              )
            }
          >
            {t('action.test')}
          </Button>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setDialog({ open: true, editing: e })}>
            {t('action.edit')}
          </Button>
          <Popconfirm
            title={t('confirm.rotate')}
            okText={t('action.rotate')}
            cancelText={t('action.cancel')}
            onConfirm={() =>
              quietly(
                rotate.mutateAsync(e.id).then((k) => {
                  setSecret(k);
                  message.success(t('msg.rotated'));
                }),
              )
            }
          >
            <Button size="small" type="link" icon={<KeyOutlined />}>
              {t('action.rotate')}
            </Button>
          </Popconfirm>
          {e.previousSecretUntil && (
            // Issue 47: the old secret's 24-hour overlap ended at once (it leaked, or every receiver has the new one).
            <Popconfirm
              title={t('confirm.endPrevious')}
              okText={t('action.endPrevious')}
              cancelText={t('action.cancel')}
              onConfirm={async () => {
                await endPrevious.mutateAsync(e.id);
                message.success(t('msg.previousEnded'));
              }}
            >
              <Button size="small" type="link" icon={<StopOutlined />}>
                {t('action.endPrevious')}
              </Button>
            </Popconfirm>
          )}
          {e.enabled ? (
            <Popconfirm
              title={t('confirm.disable')}
              okText={t('action.disable')}
              cancelText={t('action.cancel')}
              onConfirm={() => quietly(setEnabled.mutateAsync({ id: e.id, enabled: false }).then(() => message.success(t('msg.disabled'))))}
            >
              <Button size="small" type="link" icon={<PauseCircleOutlined />} style={{ color: '#cf1322' }}>
                {t('action.disable')}
              </Button>
            </Popconfirm>
          ) : (
            <Button size="small" type="link" icon={<PlayCircleOutlined />} onClick={() => quietly(setEnabled.mutateAsync({ id: e.id, enabled: true }).then(() => message.success(t('msg.enabled'))))}>
              {t('action.enable')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      card={false}
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
            {t('refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, editing: null })}>
            {t('add')}
          </Button>
        </Space>
      }
    >
      <Flex vertical gap={16}>
        <Card>
          <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
          <Table<WebhookEndpoint>
            rowKey="id"
            size="middle"
            columns={narrow ? columns.filter((c) => c.key === 'url' || c.key === 'actions') : columns}
            dataSource={data ?? []}
            loading={isFetching && !data}
            scroll={narrow ? undefined : { x: 1100 }}
            locale={{ emptyText: <Typography.Text type="secondary">{t('empty')}</Typography.Text> }}
            pagination={false}
          />
        </Card>
        <Card>{chosen ? <DeliveriesPanel key={chosen.id} endpoint={chosen} /> : <Typography.Text type="secondary">{t('deliveries.choose')}</Typography.Text>}</Card>
      </Flex>
      <EndpointDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: null })}
        onCreated={(s) => {
          setDialog({ open: false, editing: null });
          setSecret(s);
          message.success(t('msg.created'));
          setParams({ endpoint: String(s.endpoint.id) });
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </PageContainer>
  );
}
