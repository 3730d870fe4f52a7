import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row, Space, type ColProps, type FormInstance, type FormItemProps } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import { charCount } from '../lib/char-count';
import { SavedViews } from '../features/views/saved-views';

/** A filter's grid cell: one to four a row as the screen widens. */
export const FILTER_COL: ColProps = { xs: 24, sm: 12, lg: 8, xxl: 6 };

/** The form of a list's filters, its fields following the filters kept in the URL (`value`). */
export function useFilterForm<F, V>(value: F, toForm: (f: F) => V): FormInstance<V> {
  const [form] = Form.useForm<V>();
  useEffect(() => followFilters(form, toForm(value) as Record<string, unknown>), [form, value, toForm]);
  return form;
}

/**
 * Sets every field of a filter form to `values`: a field `values` leaves out is emptied (antd's
 * setFieldsValue would keep its old value, and the next search would apply it again).
 */
export function followFilters(form: FormInstance, values: Record<string, unknown>) {
  const names = new Set([...Object.keys(form.getFieldsValue(true) as object), ...Object.keys(values)]);
  form.setFields([...names].map((name) => ({ name, value: values[name], errors: [] })));
}

/**
 * The frame of a list's filters: the fields (`children`, grid cells) in a row, then search, clear
 * (when given), the screen's own buttons and its saved views (issue 13).
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
        <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
          {search}
        </Button>
        {clear && (
          <Button icon={<ClearOutlined aria-hidden />} onClick={clear.onClick}>
            {clear.label}
          </Button>
        )}
        {extra}
        <SavedViews />
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
      <Input allowClear count={charCount(maxLength)} />
    </FilterItem>
  );
}
