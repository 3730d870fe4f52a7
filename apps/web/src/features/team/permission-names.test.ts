import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRANTABLE_PERMISSIONS, LANGUAGES } from '@portal/contract';
import { permKey } from './components/permission-picker';

/** Every permission the custom role offers has a readable name in each language (three had none: the picker showed i18n errors). */
describe('permission names', () => {
  it.each(LANGUAGES)('%s names every grantable permission', (lng) => {
    const team = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../../locales/${lng}/team.json`), 'utf8')) as { perm: Record<string, string> };
    const missing = GRANTABLE_PERMISSIONS.filter((p) => !team.perm[permKey(p).slice('perm.'.length)]?.trim());
    expect(missing).toEqual([]);
  });
});
