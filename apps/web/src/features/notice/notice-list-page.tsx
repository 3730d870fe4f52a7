import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { NoticeRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { usePageParams } from '../../lib/paging';
import { formatInstantLabelled } from '../../lib/time';
import { useNotices } from './api/get-notices';
import { NoticeLevelTag } from './notice-level-tag';
import { NoticeLink } from './notice-link';

/** /notice/list: notices for the user's merchants, newest first; page and size in the URL. */
export function NoticeListPage() {
  const { t } = useTranslation('notice');
  const { page, size, pagination } = usePageParams();
  const { data, isFetching } = useNotices(page, size);

  const columns: ColumnsType<NoticeRow> = [
    { key: 'level', title: t('col.level'), dataIndex: 'level', width: 110, render: (level: NoticeRow['level']) => <NoticeLevelTag level={level} /> },
    {
      key: 'title',
      title: t('col.title'),
      render: (_, n) => (
        <div className="notice-row">
          <Link to={`/notice/detail/${n.id}`} className="notice-row__title">
            {n.title}
          </Link>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
            {n.summary}
          </Typography.Paragraph>
        </div>
      ),
    },
    { key: 'publishedAt', title: t('col.publishedAt'), dataIndex: 'publishedAt', width: 190, render: (v: string) => formatInstantLabelled(v) },
    { key: 'link', title: t('col.action'), width: 170, render: (_, n) => (n.link ? <NoticeLink href={n.link} /> : null) },
  ];

  return (
    <PageContainer>
      <Table<NoticeRow>
        rowKey="id"
        columns={columns}
        dataSource={data?.content ?? []}
        loading={isFetching}
        rowClassName={(n) => (n.level === 'important' ? 'notice-row--important' : '')}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (total) => t('total', { count: total }) })}
        scroll={{ x: 720 }}
      />
    </PageContainer>
  );
}
