import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Flex, Form, Select, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, DOCUMENT_KINDS, type DocumentKind, type MerchantDocument } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ListTable } from '../../components/list-table';
import { useFilterForm } from '../../components/filter-form';
import { SavedViews } from '../views/saved-views';
import { Money } from '../../components/money';
import { usePageParams } from '../../lib/paging';
import { formatInstant } from '../../lib/time';
import { downloadDocument, useDocuments } from './api/documents';
import { formatSize } from './file-report-page';

type Range = [dayjs.Dayjs, dayjs.Dayjs];
const M = 'YYYY-MM';
interface Filters {
  kind?: DocumentKind;
  range?: Range | null;
  currency?: string;
}
/** The form's fields from the URL's filters. */
const toForm = (f: { kind?: DocumentKind; currency?: string; periodFrom?: string; periodTo?: string }): Filters => ({
  kind: f.kind,
  currency: f.currency,
  range: f.periodFrom && f.periodTo ? [dayjs(f.periodFrom, M), dayjs(f.periodTo, M)] : null,
});

/**
 * /files: documents the provider publishes to the merchant — monthly statements (PDF and CSV) and
 * the fee schedule — distinct from /report/file (the user's own exports).
 */
export function DocumentsPage() {
  const { t } = useTranslation('files');
  const [params, setParams] = useSearchParams();
  const { page, size, pagination } = usePageParams();
  const q = {
    page,
    size,
    kind: (params.get('kind') || undefined) as DocumentKind | undefined,
    periodFrom: params.get('periodFrom') || undefined,
    periodTo: params.get('periodTo') || undefined,
    currency: params.get('currency') || undefined,
  };
  const list = useDocuments(q);
  const [busy, setBusy] = useState<number | null>(null);
  // The fields follow the URL (a saved view opened, back and forward).
  const filters = useMemo(() => ({ kind: q.kind, currency: q.currency, periodFrom: q.periodFrom, periodTo: q.periodTo }), [q.kind, q.currency, q.periodFrom, q.periodTo]);
  const form = useFilterForm(filters, toForm);
  const search = (v: Filters) =>
    setParams(() => {
      const out = new URLSearchParams();
      if (v.kind) out.set('kind', v.kind);
      if (v.range?.[0] && v.range[1]) {
        out.set('periodFrom', v.range[0].format(M));
        out.set('periodTo', v.range[1].format(M));
      }
      if (v.currency) out.set('currency', v.currency);
      out.set('page', '1');
      out.set('size', String(size));
      return out;
    });
  const columns = useMemo<ColumnsType<MerchantDocument>>(
    () => [
      {
        key: 'kind',
        title: t('docs.col.kind'),
        width: 170,
        render: (_, d) => (d.noticeId !== null ? <Link to={`/notice/detail/${d.noticeId}`}>{t(`docs.kind.${d.kind}`)}</Link> : <Typography.Text strong>{t(`docs.kind.${d.kind}`)}</Typography.Text>),
      },
      { key: 'merchant', title: t('docs.col.merchant'), width: 150, render: (_, d) => d.merId ?? t('docs.allMerchants') },
      { key: 'period', title: t('docs.col.period'), dataIndex: 'period', width: 110 },
      { key: 'currency', title: t('docs.col.currency'), width: 90, render: (_, d) => d.currency ?? '—' },
      { key: 'format', title: t('docs.col.format'), width: 90, render: (_, d) => <Tag>{d.format.toUpperCase()}</Tag> },
      {
        key: 'closing',
        title: t('docs.col.closing'),
        width: 140,
        align: 'right',
        render: (_, d) => (d.closing !== null && d.currency ? <Money value={d.closing} currency={d.currency} /> : '—'),
      },
      { key: 'size', title: t('col.size'), width: 100, align: 'right', render: (_, d) => formatSize(d.sizeBytes) },
      { key: 'published', title: t('docs.col.published'), width: 150, render: (_, d) => formatInstant(d.publishedAt, 'YYYY-MM-DD HH:mm') },
      {
        key: 'action',
        title: t('col.actions'),
        width: 140,
        fixed: 'right',
        render: (_, d) => (
          <Button
            size="small"
            icon={<DownloadOutlined />}
            loading={busy === d.id}
            aria-label={`${t('download')} ${d.fileName}`}
            onClick={async () => {
              setBusy(d.id);
              try {
                await downloadDocument(d);
              } finally {
                setBusy(null);
              }
            }}
          >
            {t('download')}
          </Button>
        ),
      },
    ],
    [t, busy],
  );
  return (
    <PageContainer>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={
          <>
            {t('docs.hint')}{' '}
            <Link to="/report/file" style={{ textDecoration: 'underline' }}>
              {t('docs.hintLink')}
            </Link>
          </>
        }
      />
      <Form
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        initialValues={{ kind: q.kind, currency: q.currency, range: q.periodFrom && q.periodTo ? [dayjs(q.periodFrom, M), dayjs(q.periodTo, M)] : null }}
        onFinish={search}
      >
        <Form.Item name="kind" label={t('docs.col.kind')}>
          <Select allowClear style={{ width: 190 }} aria-label={t('docs.col.kind')} options={DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`docs.kind.${k}`) }))} />
        </Form.Item>
        <Form.Item name="range" label={t('docs.col.period')}>
          {/* allowEmpty: antd locks the focus on an empty field otherwise (keyboard trap, issue 29); a half range is no range */}
          <DatePicker.RangePicker picker="month" allowClear allowEmpty={[true, true]} aria-label={t('docs.col.period')} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="currency" label={t('docs.col.currency')}>
          <Select allowClear showSearch style={{ width: 110 }} aria-label={t('docs.col.currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit">
            {t('docs.search')}
          </Button>
          <Button onClick={() => setParams(new URLSearchParams({ page: '1', size: String(size) }))}>{t('docs.clear')}</Button>
          <SavedViews />
        </Flex>
      </Form>
      <ListTable<MerchantDocument> ns="files" columns={columns} list={list} pagination={pagination} scrollX={1150} />
    </PageContainer>
  );
}
