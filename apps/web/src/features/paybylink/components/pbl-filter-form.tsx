import { useEffect, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { dayjs, WIRE_DATE } from '../../../lib/time';
import type { PblFilters } from '../use-pbl-filters';

interface FormValues {
  period: DateRange | null;
  orderno?: string;
  reconId?: string;
  status?: string;
}

const toForm = (f: PblFilters): FormValues => ({
  period: f.beginDate && f.endDate ? [dayjs(f.beginDate), dayjs(f.endDate)] : null,
  orderno: f.orderno,
  reconId: f.reconId,
  status: f.status,
});

/** The filters of spec §2: creation date range, order number, recon id, status; search, clear and the buttons slot. */
export function PblFilterForm({ value, onSearch, extra }: { value: PblFilters; onSearch: (f: PblFilters | null) => void; extra?: ReactNode }) {
  const { t } = useTranslation('payByLink');
  const [form] = Form.useForm<FormValues>();
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);
  const col = { xs: 24, sm: 12, lg: 6 };
  const statuses = [
    { value: '02', label: t('status.notPaid') },
    { value: '00', label: t('status.processing') },
    { value: 'status00', label: t('status.paid') },
    { value: '01', label: t('status.closed') },
  ];
  const submit = (v: FormValues) =>
    onSearch({
      beginDate: v.period?.[0].format(WIRE_DATE),
      endDate: v.period?.[1].format(WIRE_DATE),
      orderno: v.orderno?.trim() || undefined,
      reconId: v.reconId?.trim() || undefined,
      status: v.status || undefined,
    });

  return (
    <Form form={form} name="pblFilter" layout="vertical" onFinish={submit} initialValues={toForm(value)}>
      <Row gutter={16}>
        <Col xs={24} sm={12} lg={6}>
          <Form.Item name="period" label={t('filter.createDate')}>
            <DateRangeFilter aria-label={t('filter.createDate')} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="orderno" label={t('filter.orderno')}>
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="reconId" label={t('filter.reconId')}>
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="status" label={t('filter.status')}>
            <Select allowClear placeholder={t('filter.all')} options={statuses} />
          </Form.Item>
        </Col>
      </Row>
      <Space wrap>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('action.search')}
        </Button>
        <Button
          icon={<ClearOutlined />}
          onClick={() => {
            form.resetFields();
            form.setFieldsValue({ period: null, orderno: undefined, reconId: undefined, status: undefined });
            onSearch(null);
          }}
        >
          {t('action.clear')}
        </Button>
        {extra}
      </Space>
    </Form>
  );
}
