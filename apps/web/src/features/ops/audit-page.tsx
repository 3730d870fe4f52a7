import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, DatePicker, Input, Table, Tag, Typography } from 'antd';
import { dayjs, formatInstant } from '../../lib/time';
import type { OpsAuditRow } from './api/ops-http';
import { opsQuery } from './api/ops-query';
import { OpsMerchantsApi } from '@portal/contract';

const PAGE = 20;

/** The audit log across merchants: operators' and merchant users' entries, by merchant, action, actor and days. */
export default function AuditPage() {
  const { t } = useTranslation('ops');
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs]>([dayjs().subtract(6, 'day'), dayjs()]);
  const [f, setF] = useState<{ merId?: string; action?: string; actor?: string; operatorsOnly?: boolean }>({});
  const [page, setPage] = useState(0);
  const params = { ...f, operatorsOnly: f.operatorsOnly ? ('true' as const) : undefined, from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD'), page, size: PAGE };
  const list = useQuery(opsQuery(OpsMerchantsApi.audit, params));
  const set = (k: keyof typeof f) => (v: string) => {
    setPage(0);
    setF((x) => ({ ...x, [k]: v.trim() || undefined }));
  };
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('audit.title')}
      </Typography.Title>
      <div className="ops-toolbar" role="search">
        <DatePicker.RangePicker aria-label={t('audit.days')} value={range} allowClear={false} maxDate={dayjs()} onChange={(v) => v?.[0] && v[1] && (setPage(0), setRange([v[0], v[1]]))} />
        <Input.Search aria-label={t('merchants.merId')} placeholder={t('merchants.merId')} allowClear style={{ width: 200 }} onSearch={set('merId')} />
        <Input.Search aria-label={t('audit.action')} placeholder={t('audit.action')} allowClear style={{ width: 200 }} onSearch={set('action')} />
        <Input.Search aria-label={t('audit.actor')} placeholder={t('audit.actor')} allowClear style={{ width: 180 }} onSearch={set('actor')} />
        <Checkbox onChange={(e) => (setPage(0), setF((x) => ({ ...x, operatorsOnly: e.target.checked })))}>{t('audit.operatorsOnly')}</Checkbox>
      </div>
      <Table<OpsAuditRow>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.content ?? []}
        scroll={{ x: 1000 }}
        pagination={{ current: page + 1, pageSize: PAGE, total: list.data?.totalElements ?? 0, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
        columns={[
          { title: t('audit.at'), dataIndex: 'at', render: (v: string) => formatInstant(v, 'YYYY-MM-DD HH:mm:ss') },
          {
            title: t('audit.actor'),
            dataIndex: 'actor',
            render: (a: string | null, r) => (
              <>
                {a} {r.byOperator && <Tag>{t('audit.operator')}</Tag>}
              </>
            ),
          },
          { title: t('merchants.merId'), dataIndex: 'merId' },
          {
            title: t('audit.action'),
            dataIndex: 'action',
            render: (a: string, r) => (
              <>
                {a} {r.outcome !== 'success' && <Tag color="error">{r.outcome}</Tag>}
              </>
            ),
          },
          { title: t('audit.target'), dataIndex: 'target' },
          { title: t('audit.detail'), dataIndex: 'detail', ellipsis: true },
          { title: t('sessions.ip'), dataIndex: 'ip' },
        ]}
      />
    </>
  );
}
