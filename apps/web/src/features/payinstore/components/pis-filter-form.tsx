import type { ReactNode } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Store } from '@portal/contract';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { FilterForm, FilterItem, TextFilter, useFilterForm } from '../../../components/filter-form';
import { dayjs, WIRE_DATE } from '../../../lib/time';
import type { PisFilters } from '../use-pis-filters';

interface FormValues {
  period: DateRange | null;
  storeId?: string;
  status?: string;
  orderno?: string;
}

const toForm = (f: PisFilters): FormValues => ({
  period: f.beginDate && f.endDate ? [dayjs(f.beginDate), dayjs(f.endDate)] : null,
  storeId: f.storeId,
  status: f.status,
  orderno: f.orderno,
});

/** The filters of the in-store list: creation time range, store, status, order number. */
export function PisFilterForm({ value, stores, onSearch, extra }: { value: PisFilters; stores: Store[]; onSearch: (f: PisFilters | null) => void; extra?: ReactNode }) {
  const { t } = useTranslation('payInStore');
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
      storeId: v.storeId || undefined,
      status: v.status || undefined,
      orderno: v.orderno?.trim() || undefined,
    });
  const clear = () => {
    form.resetFields();
    form.setFieldsValue({ period: null, storeId: undefined, status: undefined, orderno: undefined });
    onSearch(null);
  };
  return (
    <FilterForm form={form} name="pisFilter" initialValues={toForm(value)} onFinish={submit} search={t('action.search')} clear={{ label: t('action.clear'), onClick: clear }} extra={extra}>
      <FilterItem col={col} name="period" label={t('filter.createDate')}>
        <DateRangeFilter aria-label={t('filter.createDate')} style={{ width: '100%' }} />
      </FilterItem>
      <FilterItem col={col} name="storeId" label={t('filter.store')}>
        <Select allowClear showSearch optionFilterProp="label" placeholder={t('filter.all')} options={stores.map((s) => ({ value: s.storeId, label: `${s.storeId} - ${s.storeName}` }))} />
      </FilterItem>
      <FilterItem col={col} name="status" label={t('filter.status')}>
        <Select allowClear placeholder={t('filter.all')} options={statuses} />
      </FilterItem>
      <TextFilter col={col} name="orderno" label={t('filter.orderno')} />
    </FilterForm>
  );
}
