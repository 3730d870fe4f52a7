import type { ReactNode } from 'react';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BRANDS, RESULT_FILTERS, TXN_TYPES } from '@portal/contract';
import { DateRangeFilter, type DateRange } from '../../../components/date-range-filter';
import { FilterForm, FilterItem, TextFilter, followFilters, useFilterForm } from '../../../components/filter-form';
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
  const form = useFilterForm(value, toForm);

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
    followFilters(form, { tz, period: [dayjs(d.begin), dayjs(d.end)], paymentBrand: [] });
    onClear();
  };
  return (
    <FilterForm form={form} className="txn-filter-form" initialValues={toForm(value)} onFinish={submit} search={t('action.search')} clear={{ label: t('action.clear'), onClick: clear }} extra={extra}>
      <FilterItem col={{ xs: 24, lg: 16, xxl: 12 }} label={t('filter.period')} required>
        <div className="txn-period">
          <Form.Item name="period" noStyle>
            <DateRangeFilter withTime allowClear={false} aria-label={t('filter.period')} style={{ flex: '1 1 340px', minWidth: 0 }} />
          </Form.Item>
          <Form.Item name="tz" noStyle>
            <TimezoneSelect aria-label={t('filter.timeZone')} style={{ flex: '0 0 120px' }} />
          </Form.Item>
        </div>
      </FilterItem>
      <FilterItem name="merId" label={t('filter.merId')}>
        <MerchantSelect placeholder={t('filter.all')} />
      </FilterItem>
      <TextFilter name="orderNum" label={t('filter.orderNum')} />
      <TextFilter name="channelOrderNum" label={t('filter.channelOrderNum')} />
      <TextFilter name="originOrderNum" label={t('filter.originOrderNum')} />
      <FilterItem name="gwTranType" label={t('filter.type')}>
        <Select allowClear placeholder={t('filter.all')} options={TXN_TYPES.map((v) => ({ value: v, label: `${v} · ${t(`type.${v}`)}` }))} />
      </FilterItem>
      <FilterItem name="gwResponse" label={t('filter.result')}>
        <Select allowClear placeholder={t('filter.all')} options={RESULT_FILTERS.map((v) => ({ value: v, label: t(`resultFilter.${v}`) }))} />
      </FilterItem>
      <TextFilter name="merReserve" label={t('filter.merReserve')} maxLength={128} />
      <FilterItem name="paymentBrand" label={t('filter.brand')}>
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          placeholder={t('filter.all')}
          showSearch={{ optionFilterProp: 'label' }}
          options={BRANDS.map((b) => ({ value: b.code, label: b.name }))}
        />
      </FilterItem>
    </FilterForm>
  );
}
