import type { ReactNode } from 'react';
import { Col } from 'antd';
import { useTranslation } from 'react-i18next';
import { FILTER_COL, FilterForm, useFilterForm } from '../../../components/filter-form';
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
  const form = useFilterForm(value, toForm);
  return (
    <FilterForm
      form={form}
      className="report-filters"
      initialValues={toForm(value)}
      onFinish={(v) => onSearch(fromForm(v))}
      search={t('action.search')}
      extra={buttons}
      buttonsStyle={{ marginBottom: 16 }}
    >
      {fields.map((f, i) => (
        <Col key={i} {...FILTER_COL}>
          {f}
        </Col>
      ))}
    </FilterForm>
  );
}
