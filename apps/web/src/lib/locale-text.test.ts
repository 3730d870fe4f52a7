import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = path.resolve(import.meta.dirname, '../locales');
const read = (lng: string, ns: string) => JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), 'utf8'));

describe('menu labels name the page they open (issue 53)', () => {
  it.each(['en', 'zh', 'ko', 'ja'])('%s: the daily summary\'s menu entry is in both of its titles (it said "Transaction report")', (lng) => {
    const menu = read(lng, 'menu').reportTxn as string;
    const { summary, summaryOld } = read(lng, 'report').title as Record<string, string>;
    expect(summary).toContain(menu);
    expect(summaryOld).toContain(menu);
  });
});

describe('Chinese and Japanese texts have no space between two CJK characters (issue 53)', () => {
  const CJK_GAP = /[\u3040-\u9fff\uff00-\uffef] [\u3040-\u9fff\uff00-\uffef]/;
  it.each(['zh', 'ja'])('%s: the manual reconciliation help', (lng) => {
    const blend = read(lng, 'settleDetail').blend as Record<string, string>;
    expect(
      Object.entries(blend)
        .filter(([, v]) => CJK_GAP.test(v))
        .map(([k]) => k),
    ).toEqual([]);
  });
});
