import { charLength } from '@portal/contract';

/**
 * antd's `count` for a text input limited to `max` characters (code points), as the server counts
 * them — antd's own `maxLength` counts UTF-16 units, so 128 emoji would stop at 64.
 */
export function charCount(max: number) {
  return {
    max,
    strategy: charLength,
    exceedFormatter: (value: string, { max: m }: { max: number }) => Array.from(value).slice(0, m).join(''),
  };
}
