import { Button, Popconfirm, Progress, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ExportFile } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { usePageParams } from '../../lib/paging';
import { formatInstant } from '../../lib/time';
import { downloadFile, useDeleteFile, useFiles } from './api/files';
import { useApp } from '../../app/lazy-app';

export function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function StatusCell({ f }: { f: ExportFile }) {
  const { t } = useTranslation('files');
  if (f.status === 'running') return <Progress percent={f.progress} size="small" status="active" style={{ width: 140 }} aria-label={t('status.running')} />;
  const color = { queued: 'default', ready: 'success', failed: 'error', running: 'processing' }[f.status];
  const tag = <Tag color={color}>{t(`status.${f.status}`)}</Tag>;
  return f.status === 'failed' && f.error ? <Tooltip title={f.error}>{tag}</Tooltip> : tag;
}

/** /report/file: the user's queued exports with status, progress, rows, size, download and delete. */
export function FileReportPage() {
  const { t, i18n } = useTranslation('files');
  const { message } = useApp();
  const { page, size, pagination } = usePageParams();
  const { data, isFetching, refetch } = useFiles(page, size);
  const del = useDeleteFile();
  const num = new Intl.NumberFormat(i18n.language);

  const columns: ColumnsType<ExportFile> = [
    { key: 'fileName', title: t('col.fileName'), render: (_, f) => <Typography.Text strong>{f.fileName}</Typography.Text> },
    { key: 'createdAt', title: t('col.createdAt'), width: 170, render: (_, f) => formatInstant(f.createdAt, 'YYYY-MM-DD HH:mm:ss') },
    { key: 'status', title: t('col.status'), width: 170, render: (_, f) => <StatusCell f={f} /> },
    { key: 'rowCount', title: t('col.rows'), width: 110, align: 'right', render: (_, f) => (f.rowCount === null ? '—' : num.format(f.rowCount)) },
    { key: 'size', title: t('col.size'), width: 110, align: 'right', render: (_, f) => formatSize(f.sizeBytes) },
    {
      key: 'actions',
      title: t('col.actions'),
      width: 200,
      render: (_, f) => (
        <Space>
          <Button size="small" type="link" icon={<DownloadOutlined />} disabled={f.status !== 'ready'} onClick={() => void downloadFile(f.id)}>
            {t('download')}
          </Button>
          <Popconfirm
            title={t('deleteConfirm')}
            okText={t('delete')}
            cancelText={t('cancel')}
            onConfirm={async () => {
              await del.mutateAsync(f.id);
              message.success(t('deleted'));
            }}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              {t('delete')}
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
          {t('refresh')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('hint')} {t('hintExtra')}{' '}
        <Link to="/files" style={{ textDecoration: 'underline' }}>
          {t('hintExtraLink')}
        </Link>
        .
      </Typography.Paragraph>
      <Table<ExportFile>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.content ?? []}
        loading={isFetching && !data}
        scroll={{ x: 900 }}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
      />
    </PageContainer>
  );
}
