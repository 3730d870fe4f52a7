import type { CSSProperties } from 'react';
import { Select } from 'antd';
import { UTC_OFFSETS, offsetLabel } from '../lib/time';

/** Time-zone selector UTC−12 … UTC+14 (spec §9); the value is hours east of UTC. */
export function TimezoneSelect({ value, onChange, id, style, 'aria-label': ariaLabel }: { value?: number; onChange?: (v: number) => void; id?: string; style?: CSSProperties; 'aria-label'?: string }) {
  return (
    <Select<number>
      id={id}
      aria-label={ariaLabel}
      value={value}
      onChange={onChange}
      style={{ minWidth: 110, ...style }}
      options={UTC_OFFSETS.map((h) => ({ value: h, label: offsetLabel(h) }))}
      showSearch={{ optionFilterProp: 'label' }}
      popupMatchSelectWidth={false}
    />
  );
}
