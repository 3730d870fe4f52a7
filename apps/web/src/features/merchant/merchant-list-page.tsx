import { useMemo } from 'react';
import { Button, Flex, Form, Input, Select, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MERCHANT_ATTRIBUTES, type MerchantListRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ListTable } from '../../components/list-table';
import { useFilterForm } from '../../components/filter-form';
import { SavedViews } from '../views/saved-views';
import { formatAmount } from '../../components/money';
import { usePageParams } from '../../lib/paging';
import { formatPlatformLabelled } from '../../lib/time';
import { useMerchantList } from './api/merchant';

/** The form's fields from the URL's filters. */
const toForm = (f: { keyword: string; attribute: string }) => ({ keyword: f.keyword, attribute: f.attribute || undefined });

const STATUS_COLOR: Record<MerchantListRow['status'], string> = { ENABLED: 'success', LOCKED: 'warning', DISABLED: 'default' };

/**
 * /merchant/list: the caller's merchant and, for a group, its sub-merchants, with attribute,
 * status, currencies, daily limit and approval; search by id or name, filter by attribute (kept in the URL).
 */
export function MerchantListPage() {
  const { t, i18n } = useTranslation('merchant');
  const [params, setParams] = useSearchParams();
  const { page, size, pagination } = usePageParams();
  const keyword = params.get('keyword') ?? '';
  const attribute = params.get('attribute') ?? '';
  const list = useMerchantList({ page, size, keyword: keyword || undefined, attribute: attribute || undefined });
  // The fields follow the URL (a saved view opened, back and forward).
  const filters = useMemo(() => ({ keyword, attribute }), [keyword, attribute]);
  const form = useFilterForm(filters, toForm);
  const search = (v: { keyword?: string; attribute?: string }) =>
    setParams(() => {
      const out = new URLSearchParams();
      if (v.keyword?.trim()) out.set('keyword', v.keyword.trim());
      if (v.attribute) out.set('attribute', v.attribute);
      out.set('page', '1');
      out.set('size', String(size));
      return out;
    });
  const columns = useMemo<ColumnsType<MerchantListRow>>(
    () => [
      { key: 'merId', title: t('col.merId'), width: 170, fixed: 'left', render: (_, r) => <Link to={`/merchant/detail/${r.merId}`}>{r.merId}</Link> },
      { key: 'merName', title: t('col.merName'), width: 200, dataIndex: 'merName' },
      { key: 'attribute', title: t('col.attribute'), width: 130, render: (_, r) => t(`attribute.${r.attribute}`) },
      { key: 'status', title: t('col.status'), width: 110, render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`status.${r.status}`)}</Tag> },
      { key: 'defaultCurrency', title: t('col.defaultCurrency'), width: 110, dataIndex: 'defaultCurrency' },
      {
        key: 'dailyLimit',
        title: t('col.dailyLimit'),
        width: 170,
        align: 'right',
        render: (_, r) => (r.dailyLimit ? `${formatAmount(r.dailyLimit, r.defaultCurrency, i18n.language)} ${r.defaultCurrency}` : t('noLimit')),
      },
      { key: 'approval', title: t('col.approvalStatus'), width: 130, render: (_, r) => t(`approval.${r.approvalStatus}`, { defaultValue: r.approvalStatus }) },
      { key: 'approvedAt', title: t('col.approvedAt'), width: 200, dataIndex: 'approvedAt', render: (v: string | null) => (v ? formatPlatformLabelled(v) : '—') },
      { key: 'action', title: t('col.action'), width: 100, fixed: 'right', render: (_, r) => <Link to={`/merchant/detail/${r.merId}`}>{t('details')}</Link> },
    ],
    [t, i18n.language],
  );
  return (
    <PageContainer>
      <Form form={form} layout="inline" className="stack-narrow" initialValues={{ keyword, attribute: attribute || undefined }} onFinish={search} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="keyword" label={t('filter.keyword')}>
          <Input allowClear placeholder={t('filter.keywordHint')} maxLength={60} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="attribute" label={t('filter.attribute')}>
          <Select allowClear style={{ width: 170 }} aria-label={t('filter.attribute')} options={MERCHANT_ATTRIBUTES.map((a) => ({ value: a, label: t(`attribute.${a}`) }))} />
        </Form.Item>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit">
            {t('search')}
          </Button>
          <Button
            onClick={() => {
              form.setFieldsValue({ keyword: '', attribute: undefined });
              search({});
            }}
          >
            {t('clear')}
          </Button>
          <SavedViews />
        </Flex>
      </Form>
      <ListTable<MerchantListRow> ns="merchant" columns={columns} list={list} pagination={pagination} scrollX={1300} />
    </PageContainer>
  );
}
