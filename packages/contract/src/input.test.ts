import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { BEGIN_END, charLength, isReversedRange, isoDate, isoDateOrDateTime, isoDateTime, multilineTextInput, optText, parseIsoDate, refuseReversed, textInput } from './input';

const rule = (r: z.ZodSafeParseResult<unknown>) => (r.success ? null : ((r.error.issues[0] as { params?: { input?: string } }).params?.input ?? r.error.issues[0].code));

describe('textInput', () => {
  it('counts characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(128);
    expect(emoji.length).toBe(256);
    expect(charLength(emoji)).toBe(128);
    expect(textInput(128).safeParse(emoji).success).toBe(true);
    expect(rule(textInput(128).safeParse(emoji + '😀'))).toBe('tooLong');
  });

  it('refuses C0, DEL and C1 control characters, and lone surrogates', () => {
    for (const c of ['\u0000', '\u0001', '\u001f', '\u007f', '\u0080', '\u009f', '\n', '\t', '\uD800', '\uDC00x'])
      expect(rule(textInput(64).safeParse(`a${c}b`)), JSON.stringify(c)).toBe('controlChars');
    expect(textInput(64).safeParse('a\u00a0b ü 中文 한국어 😀').success).toBe(true);
  });

  it('multi-line variant allows \\n \\r \\t but not other controls', () => {
    expect(multilineTextInput(64).safeParse('line 1\r\nline\t2').success).toBe(true);
    expect(rule(multilineTextInput(64).safeParse('a\u0000b'))).toBe('controlChars');
    expect(rule(multilineTextInput(64).safeParse('a\u000bb'))).toBe('controlChars');
  });

  it('trims, and optText turns blank into undefined', () => {
    expect(textInput(3).parse('  abc  ')).toBe('abc');
    expect(optText(3).parse('')).toBeUndefined();
    expect(optText(3).parse(undefined)).toBeUndefined();
    expect(rule(optText(3).safeParse(5))).toBe('invalid_type');
  });

  it('property: any string without controls of ≤ max code points passes; adding a control fails', () => {
    const clean = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s));
    fc.assert(
      fc.property(clean, fc.integer({ min: 0, max: 0x1f }), (s, cp) => {
        const trimmed = s.trim();
        expect(textInput(charLength(trimmed)).safeParse(s).success).toBe(true);
        expect(textInput(1000).safeParse(`${s}x${String.fromCharCode(cp)}y`).success).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('isoDate / isoDateTime (one parser)', () => {
  it('accepts real dates and refuses impossible ones', () => {
    for (const ok of ['2024-02-29', '2026-12-31', '2000-02-29', '1900-01-01', '2999-12-31']) expect(isoDate.safeParse(ok).success, ok).toBe(true);
    for (const bad of [
      '0000-00-00',
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '2026-1-1',
      '20260101',
      '2026-01-01 00:00:00',
      '1899-12-31',
      '3000-01-01',
      ' ',
      'x',
    ])
      expect(rule(isoDate.safeParse(bad)), bad).toBe('date');
  });

  it('date-times: hour 0–23, minute and second 0–59', () => {
    expect(isoDateTime.safeParse('2026-01-31 23:59:59').success).toBe(true);
    expect(isoDateTime.safeParse('2026-01-31 00:00:00').success).toBe(true);
    for (const bad of ['2026-01-31 24:00:00', '2026-01-31 25:00:00', '2026-01-31 10:60:00', '2026-01-31 10:00:60', '2026-02-30 10:00:00', '0000-00-00 00:00:00', '2026-01-31', '2026-01-31T10:00:00'])
      expect(rule(isoDateTime.safeParse(bad)), bad).toBe('dateTime');
  });

  it('either form', () => {
    expect(isoDateOrDateTime.safeParse('2026-01-31').success).toBe(true);
    expect(isoDateOrDateTime.safeParse('2026-01-31 10:00:00').success).toBe(true);
    expect(rule(isoDateOrDateTime.safeParse('2026-02-31'))).toBe('dateOrDateTime');
  });

  it('property: agrees with the calendar of Date.UTC for every yyyy-MM-dd', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const s = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const t = new Date(Date.UTC(y, m - 1, d));
        const real = m >= 1 && m <= 12 && d >= 1 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
        expect(parseIsoDate(s) !== null).toBe(real);
      }),
      { numRuns: 500 },
    );
  });
});

describe('refuseReversed', () => {
  const s = z.object({ beginDate: isoDateOrDateTime.optional(), endDate: isoDateOrDateTime.optional() }).superRefine(refuseReversed(BEGIN_END));
  it('refuses begin after end, on the end field', () => {
    const r = s.safeParse({ beginDate: '2026-02-01', endDate: '2026-01-31' });
    expect(rule(r)).toBe('rangeReversed');
    expect(r.success ? null : r.error.issues[0].path).toEqual(['endDate']);
  });
  it('accepts one day, open ends, and a date end covering the whole day', () => {
    expect(s.safeParse({ beginDate: '2026-01-31', endDate: '2026-01-31' }).success).toBe(true);
    expect(s.safeParse({ beginDate: '2026-01-31 10:00:00', endDate: '2026-01-31' }).success).toBe(true);
    expect(s.safeParse({ beginDate: '2026-01-31' }).success).toBe(true);
    expect(isReversedRange('2026-01-31 10:00:01', '2026-01-31 10:00:00')).toBe(true);
    expect(isReversedRange('2026-01-31 10:00:00', '2026-01-31 10:00:00')).toBe(false);
  });
});
