import { Alert, Button, Divider, Flex, Skeleton, Typography } from 'antd';
import { ClockCircleOutlined, PaperClipOutlined } from '@ant-design/icons';
import { http, saveFile } from '../../lib/http';
import { formatSize } from '../files/file-report-page';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { NotFoundResult } from '../errors/not-found-result';
import { formatInstantLabelled } from '../../lib/time';
import { useNotice } from './api/get-notice';
import { NoticeLevelTag } from './notice-level-tag';
import { NoticeLink } from './notice-link';
import { NoticeApi } from '@portal/contract';

/** /notice/detail/{id}: one notice in the user's language. */
export function NoticeDetailPage() {
  const { t } = useTranslation('notice');
  const { id = '' } = useParams();
  const { data: notice, isPending, isError, error } = useNotice(id);

  if (isError && (error as { code?: number })?.code === 404) return <NotFoundResult />;
  return (
    <PageContainer back>
      {isPending || !notice ? (
        isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )
      ) : (
        <article className="notice-detail">
          <Flex align="center" gap={8} wrap>
            <NoticeLevelTag level={notice.level} />
            <Typography.Title level={3} style={{ margin: 0 }}>
              {notice.title}
            </Typography.Title>
          </Flex>
          <Typography.Text type="secondary">
            <ClockCircleOutlined /> {t('publishedAt', { at: formatInstantLabelled(notice.publishedAt) })}
          </Typography.Text>
          <Divider />
          {/* A blank line starts a paragraph; a single line break stays one (issue 53: lost). */}
          <Typography.Paragraph strong className="notice-detail__text">
            {notice.summary}
          </Typography.Paragraph>
          {notice.content.split(/(?:\r?\n){2,}/).map((para, i) => (
            <Typography.Paragraph key={i} className="notice-detail__text">
              {para}
            </Typography.Paragraph>
          ))}
          {notice.link && <NoticeLink href={notice.link} />}
          {!!notice.attachments?.length && (
            <section aria-label={t('attachments')}>
              <Divider />
              <Typography.Title level={5}>{t('attachments')}</Typography.Title>
              <Flex vertical gap={8} align="flex-start">
                {notice.attachments.map((a) => (
                  <Button key={a.id} icon={<PaperClipOutlined />} aria-label={`${t('download')} ${a.fileName}`} onClick={async () => saveFile(await http.call(NoticeApi.attachment, { id: a.id }))}>
                    {a.fileName} ({formatSize(a.sizeBytes)})
                  </Button>
                ))}
              </Flex>
            </section>
          )}
        </article>
      )}
    </PageContainer>
  );
}
