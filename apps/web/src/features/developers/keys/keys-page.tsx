import { useState } from 'react';
import { Button, Grid, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ApiKeyCreated, ApiKeyRow } from '@portal/contract';
import { PageContainer } from '../../../components/page-container';
import { usePageParams } from '../../../lib/paging';
import { formatPlatform } from '../../../lib/time';
import { useApp } from '../../../app/lazy-app';
import { permKey } from '../../team/components/permission-picker';
import { useKeys, useRevokeKey } from './api/keys';
import { CreateKeyDialog, KeySecretDialog } from './create-key-dialog';

const STATUS_COLOR = { active: 'success', revoked: 'default', expired: 'warning' } as const;

/** /developers/keys: the merchant API's keys — prefix, merchants, permissions, last use, expiry, the 90-days-unused flag; create and revoke. */
export function KeysPage() {
  const { t } = useTranslation(['developer', 'team']);
  const { message } = useApp();
  const { page, size, pagination } = usePageParams();
  const { data, isFetching, refetch } = useKeys(page, size);
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const narrow = !Grid.useBreakpoint().md;
  const when = (v: string | null) => (v ? formatPlatform(v).slice(0, 16) : null);

  const columns: ColumnsType<ApiKeyRow> = [
    {
      key: 'name',
      title: t('col.name'),
      render: (_, k) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{k.name}</Typography.Text>
          <Typography.Text code>{k.prefix}</Typography.Text>
          <Space size={4} wrap>
            <Tag color={STATUS_COLOR[k.status]}>{t(`status.${k.status}`)}</Tag>
            {k.unused && <Tag color="orange">{t('unused')}</Tag>}
          </Space>
        </Space>
      ),
    },
    {
      key: 'scope',
      title: `${t('col.merchants')} · ${t('col.permissions')}`,
      render: (_, k) => (
        <Space direction="vertical" size={0}>
          <span style={{ wordBreak: 'break-all' }}>{k.merIds.join(', ')}</span>
          <Tooltip title={k.permissions.map((p) => t(`team:${permKey(p)}`)).join(', ')}>
            <Typography.Text type="secondary">{t('permCount', { count: k.permissions.length })}</Typography.Text>
          </Tooltip>
          {k.ipAllow.length > 0 && <Typography.Text type="secondary">{k.ipAllow.join(', ')}</Typography.Text>}
        </Space>
      ),
    },
    {
      key: 'created',
      title: t('col.created'),
      render: (_, k) => (
        <Space direction="vertical" size={0}>
          <span>{when(k.createdAt)}</span>
          <Typography.Text type="secondary">{t('by', { name: k.createdBy })}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'lastUsed',
      title: t('col.lastUsed'),
      render: (_, k) => (
        <Space direction="vertical" size={0}>
          <span>{when(k.lastUsedAt) ?? t('never')}</span>
          {k.lastIp && <Typography.Text type="secondary">{k.lastIp}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'expires', title: t('col.expires'), render: (_, k) => when(k.expiresAt) ?? t('noExpiry') },
    {
      key: 'actions',
      title: t('col.actions'),
      render: (_, k) =>
        k.status === 'revoked' ? null : (
          <Popconfirm
            title={t('revokeConfirm', { prefix: k.prefix })}
            okText={t('revoke')}
            cancelText={t('form.cancel')}
            onConfirm={async () => {
              await revoke.mutateAsync(k.id);
              message.success(t('revoked', { prefix: k.prefix }));
            }}
          >
            {/* The theme's darker red: antd's danger red is 3.26:1 on white (WCAG 1.4.3). */}
            <Button size="small" type="link" style={{ color: '#cf1322' }} aria-label={`${t('revoke')} ${k.prefix}`}>
              {t('revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
            {t('refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('create')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('hint')}{' '}
        <Typography.Link href="/v1/docs" target="_blank" rel="noopener">
          {t('docs')}
        </Typography.Link>
      </Typography.Paragraph>
      <Table<ApiKeyRow>
        rowKey="id"
        size="middle"
        columns={narrow ? columns.filter((c) => c.key === 'name' || c.key === 'lastUsed' || c.key === 'actions') : columns}
        dataSource={data?.content ?? []}
        loading={isFetching && !data}
        locale={{ emptyText: <Typography.Text type="secondary">{t('empty')}</Typography.Text> }}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
      />
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          setCreating(false);
          setCreated(k);
        }}
      />
      <KeySecretDialog created={created} onClose={() => setCreated(null)} />
    </PageContainer>
  );
}
