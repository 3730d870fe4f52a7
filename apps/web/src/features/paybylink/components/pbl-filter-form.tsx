import type { ReactNode } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { FilterForm, FilterItem, TextFilter, followFilters, useFilterForm } from '../../../components/filter-form';
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
  const form = useFilterForm(value, toForm);
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
  const clear = () => {
    followFilters(form, { period: null });
    onSearch(null);
  };

  return (
    <FilterForm form={form} name="pblFilter" initialValues={toForm(value)} onFinish={submit} search={t('action.search')} clear={{ label: t('action.clear'), onClick: clear }} extra={extra}>
      <FilterItem col={col} name="period" label={t('filter.createDate')}>
        <DateRangeFilter aria-label={t('filter.createDate')} style={{ width: '100%' }} />
      </FilterItem>
      <TextFilter col={col} name="orderno" label={t('filter.orderno')} />
      <TextFilter col={col} name="reconId" label={t('filter.reconId')} />
      <FilterItem col={col} name="status" label={t('filter.status')}>
        <Select allowClear placeholder={t('filter.all')} options={statuses} />
      </FilterItem>
    </FilterForm>
  );
}
