import type { ReactNode } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_EVENT_TYPE_KEYS, type AuditEventType } from '@portal/contract';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { FilterForm, FilterItem, TextFilter, useFilterForm } from '../../../components/filter-form';
import { dayjs, WIRE_DATE } from '../../../lib/time';
import type { AuditFilters } from '../use-team-filters';

interface FormValues {
  period: DateRange | null;
  userName?: string;
  eventType?: AuditEventType;
}
const toForm = (f: AuditFilters): FormValues => ({
  period: f.beginDate && f.endDate ? [dayjs(f.beginDate), dayjs(f.endDate)] : null,
  userName: f.userName,
  eventType: f.eventType,
});

/** The audit viewer's filters: time range, user, event type. */
export function AuditFilterForm({ value, onSearch, extra }: { value: AuditFilters; onSearch: (f: AuditFilters | null) => void; extra?: ReactNode }) {
  const { t } = useTranslation('team');
  const form = useFilterForm(value, toForm);
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <FilterForm
      form={form}
      name="auditFilter"
      initialValues={toForm(value)}
      onFinish={(v: FormValues) =>
        onSearch({
          beginDate: v.period?.[0].format(WIRE_DATE),
          endDate: v.period?.[1].format(WIRE_DATE),
          userName: v.userName?.trim() || undefined,
          eventType: v.eventType || undefined,
        })
      }
      search={t('action.search')}
      clear={{
        label: t('action.clear'),
        onClick: () => {
          form.setFieldsValue({ period: null, userName: undefined, eventType: undefined });
          onSearch(null);
        },
      }}
      extra={extra}
    >
      <FilterItem col={col} name="period" label={t('audit.filter.period')}>
        <DateRangeFilter aria-label={t('audit.filter.period')} style={{ width: '100%' }} />
      </FilterItem>
      <TextFilter col={col} name="userName" label={t('audit.filter.user')} />
      <FilterItem col={col} name="eventType" label={t('audit.filter.eventType')}>
        <Select allowClear placeholder={t('filter.all')} options={AUDIT_EVENT_TYPE_KEYS.map((k) => ({ value: k, label: t(`audit.eventType.${k}`) }))} />
      </FilterItem>
    </FilterForm>
  );
}
