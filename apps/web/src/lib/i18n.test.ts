import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { preloadTexts, reportMissingKey } from './i18n';

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
        expect(
          keys.filter((k) => !otherKeys.includes(k)),
          `keys in ${lng}/${file} missing from ${other}/${file}`,
        ).toEqual([]);
      }
    });
    it.each(LANGS)('%s has no empty value and keeps the placeholders', (lng) => {
      const data = load(lng, file) ?? {};
      const empty = Object.entries(data)
        .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
        .map(([k]) => k);
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

/**
 * Code → keys: every literal `t('key')` of a module that names its namespace with useTranslation
 * exists in English (the parity tests above carry it to the other languages), and a key that only
 * has plural forms is called with a count (i18next shows the bare key otherwise).
 */
describe('keys the code uses', () => {
  const SRC = path.resolve(import.meta.dirname, '..');
  const en = new Map(namespaces.map((f) => [f.replace(/\.json$/, ''), new Set(Object.keys(load('en', f) ?? {}))]));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'locales') walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\./.test(e.name)) files.push(p);
    }
  };
  walk(SRC);

  it('finds the modules to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('every literal key exists, plural-only keys get a count', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const f of files) {
      const src = fs.readFileSync(f, 'utf8');
      const m = /useTranslation\(\s*(?:'([\w-]+)'|\[\s*'([\w-]+)')/.exec(src);
      if (!m) continue;
      for (const call of src.matchAll(/\bt\(\s*'([^'$]+)'([^)]*)/g)) {
        let [ns, key] = [m[1] ?? m[2], call[1]];
        if (key.includes(':')) [ns, key] = key.split(':');
        const keys = en.get(ns);
        const where = `${path.relative(SRC, f)}: ${ns}:${key}`;
        checked++;
        const plural = !!keys && (keys.has(`${key}_one`) || keys.has(`${key}_other`));
        const group = !!keys && [...keys].some((k) => k.startsWith(`${key}.`));
        if (!keys || !(keys.has(key) || plural || group)) problems.push(`${where} is missing`);
        else if (!keys.has(key) && plural && !/count/.test(call[2])) problems.push(`${where} has plural forms only and is called without a count`);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });
});

describe('a key without text at run time', () => {
  it('is reported on the console (the e2e console guard fails on it) unless the call gives a default', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const i = i18next.createInstance();
      await i.init({ lng: 'en', fallbackLng: false, resources: { en: { txn: { settle: { count_one: 'one', count_other: 'many' } } } }, saveMissing: true, missingKeyHandler: reportMissingKey });
      const t = i.getFixedT('en', 'txn');
      expect(t('settle.count', { count: 2 })).toBe('many');
      expect(t('settle.other', { defaultValue: 'x' })).toBe('x');
      expect(errors).not.toHaveBeenCalled();
      t('settle.count');
      expect(errors).toHaveBeenCalledWith('i18n: no text for txn:settle.count (en)');
    } finally {
      errors.mockRestore();
    }
  });
});

describe('preloaded texts', () => {
  it('fetches a text file once however often it is preloaded, and again after a failed fetch', async () => {
    const replies = [
      { ok: false, status: 503 },
      { ok: true, status: 200 },
    ];
    const fetchMock = vi.fn(async (url: string) => ({ ...(url.includes('menu') ? replies.shift()! : { ok: true, status: 200 }), json: async () => ({ k: 'v' }) }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      preloadTexts(['login']);
      preloadTexts(['login', 'layout']);
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(String(fetchMock.mock.calls[0][0])).toContain('/login');
      expect(String(fetchMock.mock.calls[1][0])).toContain('/layout');
      // A failed fetch is not kept: the next preload asks again.
      preloadTexts(['menu']);
      await new Promise((r) => setTimeout(r, 0));
      preloadTexts(['menu']);
      expect(fetchMock.mock.calls.filter(([u]) => String(u).includes('menu'))).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
