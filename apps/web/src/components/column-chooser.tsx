import { useCallback, useEffect, useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Checkbox, Flex, Popover } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { isServer } from '../lib/ssr-env';

/** What a chooser needs of a column: its key, its header, its width and whether it is fixed. */
export interface ChoosableColumn {
  key?: Key;
  title?: ReactNode | ((...a: never[]) => ReactNode);
  width?: number | string;
  fixed?: unknown;
}

/** The browser-storage key of one user's column choice for one table (merchant and user: "remembered per user"). */
const columnsStorageKey = (merId: string, username: string, table: string) => `mp_columns:${merId}:${username}:${table}`;

function readHidden(key: string | null): string[] | null {
  if (!key) return null;
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return Array.isArray(v) && v.every((k) => typeof k === 'string') ? v : null;
  } catch {
    return null;
  }
}

/**
 * The columns a user shows in one table (issue 29 §3: a report's figures in view at 1440 px): the
 * table's default leaves `defaultHidden` out; the user's own choice (the hidden keys) is kept in the
 * browser per merchant, user and table. Fixed columns (the row's key) always show. `scrollX` is the
 * width of the shown columns, so a table that fits does not scroll sideways.
 */
export function useColumnChoice<C extends ChoosableColumn>(table: string, columns: C[], defaultHidden: readonly string[] = []) {
  const { user } = useSession();
  const storageKey = user ? columnsStorageKey(user.merId, user.username, table) : null;
  // The server knows no browser storage: a server-rendered page hydrates with the table's default
  // columns and shows the user's own choice right after (issue 53: the bill report read it at once,
  // a hydration difference React had to render afresh).
  const [stored, setStored] = useState<string[] | null>(() => (isServer || document.getElementById('root')?.classList.contains('ssr-pending') ? null : readHidden(storageKey)));
  // oxlint-disable-next-line react/set-state-in-effect -- browser storage is read after hydration, on purpose (above)
  useEffect(() => setStored(readHidden(storageKey)), [storageKey]);
  const hidden = useMemo(() => new Set(stored ?? defaultHidden), [stored, defaultHidden]);
  const choosable = (c: C) => c.key !== undefined && !c.fixed;
  const visible = useMemo(() => columns.filter((c) => !choosable(c) || !hidden.has(String(c.key))), [columns, hidden]);
  const scrollX = visible.reduce((s, c) => s + (typeof c.width === 'number' ? c.width : 120), 0);
  const save = useCallback(
    (next: string[] | null) => {
      setStored(next);
      if (!storageKey) return;
      if (next === null) localStorage.removeItem(storageKey);
      else localStorage.setItem(storageKey, JSON.stringify(next));
    },
    [storageKey],
  );
  const options = columns.filter(choosable);
  const chooser = (
    <ColumnChooser
      options={options.map((c) => ({ key: String(c.key), title: typeof c.title === 'function' ? String(c.key) : c.title }))}
      shown={options.filter((c) => !hidden.has(String(c.key))).map((c) => String(c.key))}
      onChange={(shown) => save(options.map((c) => String(c.key)).filter((k) => !shown.includes(k)))}
      onReset={() => save(null)}
    />
  );
  return { visible, scrollX, chooser };
}

/** The "Columns" button: a list of the table's columns to tick, and "Default columns". */
function ColumnChooser({ options, shown, onChange, onReset }: { options: { key: string; title: ReactNode }[]; shown: string[]; onChange: (shown: string[]) => void; onReset: () => void }) {
  const { t } = useTranslation('layout');
  const [open, setOpen] = useState(false);
  const content = (
    <Flex vertical gap={8} data-testid="column-chooser">
      <Checkbox.Group value={shown} onChange={(v) => onChange(v as string[])}>
        <Flex vertical gap={4}>
          {options.map((o) => (
            <Checkbox key={o.key} value={o.key}>
              {o.title}
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
      <Button size="small" type="link" onClick={onReset} style={{ alignSelf: 'flex-start', padding: 0 }}>
        {t('columns.reset')}
      </Button>
    </Flex>
  );
  return (
    <Popover trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen} content={content} title={t('columns.title')}>
      <Button size="small" icon={<SettingOutlined />} aria-expanded={open} aria-haspopup="dialog" className="column-chooser">
        {t('columns.button', { shown: shown.length, total: options.length })}
      </Button>
    </Popover>
  );
}
