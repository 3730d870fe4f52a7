import type { ReactNode } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { USER_STATUSES, type UserStatus } from '@portal/contract';
import { FilterForm, FilterItem, TextFilter, useFilterForm } from '../../../components/filter-form';
import { MerchantSelect } from '../../../components/merchant-select';
import type { UserFilters } from '../use-team-filters';

interface FormValues {
  merId?: string;
  status?: UserStatus;
  text?: string;
}
const toForm = (f: UserFilters): FormValues => ({ ...f });

/** The user list's filters: merchant, status, text (user name or e-mail). */
export function UserFilterForm({ value, onSearch, extra }: { value: UserFilters; onSearch: (f: UserFilters | null) => void; extra?: ReactNode }) {
  const { t } = useTranslation('team');
  const form = useFilterForm(value, toForm);
  const col = { xs: 24, sm: 12, lg: 8 };
  return (
    <FilterForm
      form={form}
      name="userFilter"
      initialValues={toForm(value)}
      onFinish={(v: FormValues) => onSearch({ merId: v.merId || undefined, status: v.status || undefined, text: v.text?.trim() || undefined })}
      search={t('action.search')}
      clear={{
        label: t('action.clear'),
        onClick: () => {
          form.setFieldsValue({ merId: undefined, status: undefined, text: undefined });
          onSearch(null);
        },
      }}
      extra={extra}
    >
      <FilterItem col={col} name="merId" label={t('filter.merchant')}>
        <MerchantSelect aria-label={t('filter.merchant')} placeholder={t('filter.all')} />
      </FilterItem>
      <FilterItem col={col} name="status" label={t('filter.status')}>
        <Select allowClear placeholder={t('filter.all')} options={USER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} />
      </FilterItem>
      <TextFilter col={col} name="text" label={t('filter.text')} />
    </FilterForm>
  );
}
