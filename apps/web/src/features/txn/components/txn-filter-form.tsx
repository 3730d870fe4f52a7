import { useEffect, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BRANDS, RESULT_FILTERS, TXN_TYPES } from '@portal/contract';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { MerchantSelect } from '../../../components/merchant-select';
import { TimezoneSelect } from '../../../components/timezone-select';
import { dayjs, defaultOffset, WIRE_DATETIME } from '../../../lib/time';
import { defaultPeriod, type TxnFilters } from '../use-txn-filters';

interface FormValues extends Omit<TxnFilters, 'begin' | 'end'> {
  period: DateRange | null;
}

const toForm = (f: TxnFilters): FormValues => ({ ...f, period: [dayjs(f.begin), dayjs(f.end)] });

/** Every filter of spec §2's transaction list, with search, clear and the export button slot. */
export function TxnFilterForm({ value, onSearch, onClear, extra }: { value: TxnFilters; onSearch: (f: TxnFilters) => void; onClear: () => void; extra?: ReactNode }) {
  const { t } = useTranslation('txn');
  const [form] = Form.useForm<FormValues>();
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);

  const submit = (v: FormValues) => {
    const d = defaultPeriod(v.tz);
    const trim = (s?: string) => s?.trim() || undefined;
    onSearch({
      ...v,
      begin: v.period ? v.period[0].format(WIRE_DATETIME) : d.begin,
      end: v.period ? v.period[1].format(WIRE_DATETIME) : d.end,
      orderNum: trim(v.orderNum),
      channelOrderNum: trim(v.channelOrderNum),
      originOrderNum: trim(v.originOrderNum),
      merReserve: trim(v.merReserve),
      paymentBrand: v.paymentBrand ?? [],
    });
  };
  const clear = () => {
    const tz = defaultOffset();
    const d = defaultPeriod(tz);
    form.resetFields();
    form.setFieldsValue({ tz, period: [dayjs(d.begin), dayjs(d.end)], paymentBrand: [] });
    onClear();
  };
  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };

  return (
    <Form form={form} layout="vertical" onFinish={submit} initialValues={toForm(value)} className="txn-filter-form">
      <Row gutter={16}>
        <Col xs={24} lg={16} xxl={12}>
          <Form.Item label={t('filter.period')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="period" noStyle>
                <DateRangeFilter withTime allowClear={false} aria-label={t('filter.period')} style={{ flex: 1, minWidth: 340 }} />
              </Form.Item>
              <Form.Item name="tz" noStyle>
                <TimezoneSelect aria-label={t('filter.timeZone')} style={{ width: 120 }} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="merId" label={t('filter.merId')}>
            <MerchantSelect placeholder={t('filter.all')} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="orderNum" label={t('filter.orderNum')}>
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="channelOrderNum" label={t('filter.channelOrderNum')}>
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="originOrderNum" label={t('filter.originOrderNum')}>
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="gwTranType" label={t('filter.type')}>
            <Select allowClear placeholder={t('filter.all')} options={TXN_TYPES.map((v) => ({ value: v, label: `${v} · ${t(`type.${v}`)}` }))} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="gwResponse" label={t('filter.result')}>
            <Select allowClear placeholder={t('filter.all')} options={RESULT_FILTERS.map((v) => ({ value: v, label: t(`resultFilter.${v}`) }))} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="merReserve" label={t('filter.merReserve')}>
            <Input allowClear maxLength={128} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="paymentBrand" label={t('filter.brand')}>
            <Select
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              placeholder={t('filter.all')}
              showSearch={{ optionFilterProp: 'label' }}
              options={BRANDS.map((b) => ({ value: b.code, label: b.name }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <Space wrap>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('action.search')}
        </Button>
        <Button icon={<ClearOutlined />} onClick={clear}>
          {t('action.clear')}
        </Button>
        {extra}
      </Space>
    </Form>
  );
}
