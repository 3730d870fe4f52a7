import { useEffect } from 'react';
import { Button, Col, Form, Input, Row, Space, Table } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Perm, type LogisticsRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { Can } from '../../components/can';
import { MerchantSelect } from '../../components/merchant-select';
import { DateRangeFilter, type DateRange } from '../../components/date-range-filter';
import { followFilters } from '../../components/filter-form';
import { usePageParams } from '../../lib/paging';
import { dayjs, formatInstant } from '../../lib/time';
import { useLogistics } from './api/logistics';
import { LogisticsImport } from './components/logistics-import';
import { SavedViews } from '../views/saved-views';

const KEYS = ['merId', 'orderNum', 'shipmentNo', 'beginDate', 'endDate'] as const;

/** /txn/logistics: shipping info of the user's merchants, template download and import. */
export function LogisticsPage() {
  const { t } = useTranslation('txn');
  const [params, setParams] = useSearchParams();
  const { page, size, pagination } = usePageParams();
  const filters = Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? undefined])) as Record<(typeof KEYS)[number], string | undefined>;
  const { data, isFetching } = useLogistics({ page, size, ...filters });
  const [form] = Form.useForm();
  useEffect(() => {
    const { merId, orderNum, shipmentNo } = filters;
    followFilters(form, { merId, orderNum, shipmentNo, period: filters.beginDate && filters.endDate ? [dayjs(filters.beginDate), dayjs(filters.endDate)] : null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);

  const search = (v: { merId?: string; orderNum?: string; shipmentNo?: string; period?: DateRange | null }) =>
    setParams(() => {
      const out = new URLSearchParams({ page: '1', size: String(size) });
      if (v.merId) out.set('merId', v.merId);
      if (v.orderNum?.trim()) out.set('orderNum', v.orderNum.trim());
      if (v.shipmentNo?.trim()) out.set('shipmentNo', v.shipmentNo.trim());
      if (v.period) {
        out.set('beginDate', v.period[0].format('YYYY-MM-DD'));
        out.set('endDate', v.period[1].format('YYYY-MM-DD'));
      }
      return out;
    });

  return (
    <PageContainer
      extra={
        <Can permission={Perm.logisticsImport}>
          <LogisticsImport />
        </Can>
      }
    >
      <Form form={form} layout="vertical" onFinish={search}>
        <Row gutter={16}>
          <Col xs={24} md={12} xl={6}>
            <Form.Item name="merId" label={t('filter.merId')}>
              <MerchantSelect placeholder={t('filter.all')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={6}>
            <Form.Item name="orderNum" label={t('filter.orderNum')}>
              <Input allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={6}>
            <Form.Item name="shipmentNo" label={t('logistics.shipmentNo')}>
              <Input allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={6}>
            <Form.Item name="period" label={t('logistics.shipDate')}>
              <DateRangeFilter />
            </Form.Item>
          </Col>
        </Row>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
            {t('action.search')}
          </Button>
          <Button
            icon={<ClearOutlined aria-hidden />}
            onClick={() => {
              followFilters(form, {});
              search({});
            }}
          >
            {t('action.clear')}
          </Button>
          <SavedViews />
        </Space>
      </Form>
      <Table<LogisticsRow>
        className="logistics-table"
        style={{ marginTop: 16 }}
        rowKey="id"
        size="middle"
        dataSource={data?.content ?? []}
        loading={isFetching}
        scroll={{ x: 1000 }}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
        columns={[
          { key: 'orderNo', title: t('col.orderNo'), render: (_, r) => r.orderNo },
          { key: 'merchant', title: t('col.merName'), render: (_, r) => `${r.merId} - ${r.merName}` },
          { key: 'shipmentNo', title: t('logistics.shipmentNo'), render: (_, r) => r.shipmentNo },
          { key: 'company', title: t('logistics.company'), render: (_, r) => r.company },
          { key: 'shipDate', title: t('logistics.shipDate'), width: 120, render: (_, r) => r.shipDate },
          { key: 'status', title: t('logistics.status'), width: 130, render: (_, r) => t(`logistics.statusValue.${r.status}`, { defaultValue: r.status }) },
          { key: 'updatedAt', title: t('logistics.updatedAt'), width: 160, render: (_, r) => formatInstant(r.updatedAt) },
        ]}
      />
    </PageContainer>
  );
}
