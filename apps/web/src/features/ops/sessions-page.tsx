import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import { formatInstant } from '../../lib/time';
import { opsApi, type OpsSession } from './api/ops-http';
import { opsQuery } from './api/ops-query';
import { apiKey } from '../../lib/api-query';
import { OpsApi } from '@portal/contract';

/** The operator's own open sessions; any but this one can be ended. */
export default function SessionsPage() {
  const { t } = useTranslation('ops');
  const qc = useQueryClient();
  const list = useQuery(opsQuery(OpsApi.sessions, undefined));
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('sessions.title')}
      </Typography.Title>
      <Table<OpsSession>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 640 }}
        columns={[
          {
            title: t('sessions.started'),
            dataIndex: 'createdAt',
            render: (v: string, row) => (
              <>
                {formatInstant(v)} {row.current && <Tag color="processing">{t('sessions.current')}</Tag>}
              </>
            ),
          },
          { title: t('sessions.lastSeen'), dataIndex: 'lastSeenAt', render: (v: string) => formatInstant(v) },
          { title: t('sessions.ip'), dataIndex: 'ip' },
          { title: t('sessions.device'), dataIndex: 'userAgent', ellipsis: true },
          {
            title: t('operators.actions'),
            key: 'a',
            render: (_, row) =>
              row.current ? null : (
                <Button
                  size="small"
                  onClick={() =>
                    void opsApi.revokeSession(row.id).then(
                      () => qc.invalidateQueries({ queryKey: apiKey(OpsApi.sessions) }),
                      () => undefined,
                    )
                  }
                >
                  {t('sessions.end')}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
