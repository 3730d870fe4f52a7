import { Select } from 'antd';
import { useMerchant } from '../lib/session';

/** Merchant id picker: the user's own merchants only, shown and searchable as 'mid - name'. */
export function MerchantSelect({
  value,
  onChange,
  id,
  placeholder,
  'aria-label': ariaLabel,
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  id?: string;
  placeholder?: string;
  'aria-label'?: string;
}) {
  const { subMerIdAndNameList } = useMerchant();
  return (
    <Select<string>
      id={id}
      aria-label={ariaLabel}
      value={value || undefined}
      onChange={(v) => onChange?.(v || undefined)}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={placeholder}
      style={{ minWidth: 240 }}
      popupMatchSelectWidth={false}
      options={subMerIdAndNameList.map((m) => ({ value: m.mid, label: `${m.mid} - ${m.name}` }))}
    />
  );
}
