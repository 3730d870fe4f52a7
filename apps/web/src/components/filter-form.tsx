import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row, Space, type ColProps, type FormInstance, type FormItemProps } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';

/** A filter's grid cell: one to four a row as the screen widens. */
export const FILTER_COL: ColProps = { xs: 24, sm: 12, lg: 8, xxl: 6 };

/** The form of a list's filters, its fields following the filters kept in the URL (`value`). */
export function useFilterForm<F, V>(value: F, toForm: (f: F) => V): FormInstance<V> {
  const [form] = Form.useForm<V>();
  useEffect(() => form.setFieldsValue(toForm(value) as never), [form, value, toForm]);
  return form;
}

/**
 * The frame of a list's filters: the fields (`children`, grid cells) in a row, then search, clear
 * (when given) and the screen's own buttons.
 */
export function FilterForm<V>({
  form,
  name,
  className,
  initialValues,
  onFinish,
  search,
  clear,
  extra,
  buttonsStyle,
  children,
}: {
  form: FormInstance<V>;
  name?: string;
  className?: string;
  initialValues: V;
  onFinish: (v: V) => void;
  search: ReactNode;
  clear?: { label: ReactNode; onClick: () => void };
  extra?: ReactNode;
  buttonsStyle?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <Form form={form} name={name} layout="vertical" className={className} initialValues={initialValues as never} onFinish={onFinish}>
      <Row gutter={16}>{children}</Row>
      <Space wrap style={buttonsStyle}>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {search}
        </Button>
        {clear && (
          <Button icon={<ClearOutlined />} onClick={clear.onClick}>
            {clear.label}
          </Button>
        )}
        {extra}
      </Space>
    </Form>
  );
}

/** One filter in its grid cell: a form item (`name`, `label`, …) around its control. */
export function FilterItem({ col = FILTER_COL, children, ...item }: FormItemProps & { col?: ColProps }) {
  return (
    <Col {...col}>
      <Form.Item {...item}>{children}</Form.Item>
    </Col>
  );
}

/** A free-text filter (trimmed on search by the screen). */
export function TextFilter({ maxLength = 64, ...item }: FormItemProps & { col?: ColProps; maxLength?: number }) {
  return (
    <FilterItem {...item}>
      <Input allowClear maxLength={maxLength} />
    </FilterItem>
  );
}
