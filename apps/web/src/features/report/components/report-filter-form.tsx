import { useEffect, type ReactNode } from 'react';
import { Button, Col, Form, Row, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReportFilters } from '../use-report-filters';

/**
 * The frame of a report's filters: fields in a responsive grid, then search (back to the first
 * page) and the report's buttons. `toForm` / `fromForm` map the URL filters to the fields.
 */
export function ReportFilterForm<V extends object>({
  value,
  toForm,
  fromForm,
  onSearch,
  fields,
  buttons,
}: {
  value: ReportFilters;
  toForm: (f: ReportFilters) => V;
  fromForm: (v: V) => ReportFilters;
  onSearch: (f: ReportFilters) => void;
  fields: ReactNode[];
  buttons?: ReactNode;
}) {
  const { t } = useTranslation('report');
  const [form] = Form.useForm<V>();
  useEffect(() => form.setFieldsValue(toForm(value) as never), [form, value, toForm]);
  return (
    <Form form={form} layout="vertical" className="report-filters" initialValues={toForm(value)} onFinish={(v) => onSearch(fromForm(v))}>
      <Row gutter={16}>
        {fields.map((f, i) => (
          <Col key={i} xs={24} sm={12} lg={8} xxl={6}>
            {f}
          </Col>
        ))}
      </Row>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('action.search')}
        </Button>
        {buttons}
      </Space>
    </Form>
  );
}
