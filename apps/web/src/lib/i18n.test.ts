import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Locale parity (conventions): every namespace exists in en, zh, ko, ja with the same keys, none empty. */
const LOCALES = path.resolve(import.meta.dirname, '../locales');
const LANGS = ['en', 'zh', 'ko', 'ja'];

function flatten(obj: unknown, prefix = ''): Record<string, unknown> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { [prefix]: obj };
  return Object.entries(obj).reduce<Record<string, unknown>>((acc, [k, v]) => Object.assign(acc, flatten(v, prefix ? `${prefix}.${k}` : k)), {});
}

const namespaces = [...new Set(LANGS.flatMap((l) => fs.readdirSync(path.join(LOCALES, l)).filter((f) => f.endsWith('.json'))))].sort();
const load = (lng: string, file: string) => {
  const p = path.join(LOCALES, lng, file);
  return fs.existsSync(p) ? flatten(JSON.parse(fs.readFileSync(p, 'utf8'))) : null;
};
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  it('has the four languages and at least the shell namespaces', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common.json', 'layout.json', 'login.json', 'menu.json']));
  });

  describe.each(namespaces)('%s', (file) => {
    const en = load('en', file);
    it.each(LANGS)('exists in %s', (lng) => {
      expect(load(lng, file), `${lng}/${file} is missing`).not.toBeNull();
    });
    it.each(LANGS)('%s has the same keys as every other language', (lng) => {
      const keys = Object.keys(load(lng, file) ?? {}).sort();
      for (const other of LANGS) {
        const otherKeys = Object.keys(load(other, file) ?? {}).sort();
        expect(keys.filter((k) => !otherKeys.includes(k)), `keys in ${lng}/${file} missing from ${other}/${file}`).toEqual([]);
      }
    });
    it.each(LANGS)('%s has no empty value and keeps the placeholders', (lng) => {
      const data = load(lng, file) ?? {};
      const empty = Object.entries(data).filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
      expect(empty, `empty or non-string values in ${lng}/${file}`).toEqual([]);
      for (const [k, v] of Object.entries(data)) {
        if (en && typeof en[k] === 'string') expect(placeholders(String(v)), `placeholders of ${lng}/${file} ${k}`).toEqual(placeholders(String(en[k])));
      }
    });
    it.each(LANGS.filter((l) => l !== 'en'))('%s is translated, not an English copy', (lng) => {
      const data = load(lng, file) ?? {};
      const entries = Object.entries(data).filter(([, v]) => /[a-z]{3,}/i.test(String(v)));
      const copies = entries.filter(([k, v]) => en?.[k] === v && /[a-z]{4,}/i.test(String(v).replace(/\{\{\s*\w+\s*\}\}/g, '')));
      // A few brand names may stay in Latin letters; a namespace copied from English would not pass.
      expect(copies.length, `untranslated in ${lng}/${file}: ${copies.map(([k]) => k).join(', ')}`).toBeLessThanOrEqual(Math.floor(Object.keys(data).length / 5));
    });
  });
});
