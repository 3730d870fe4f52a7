import { z } from 'zod';

/**
 * Strict input primitives: every text, date and date-time a request carries goes through these,
 * so nothing reaches the database unchecked (issue 10, findings 4, 5, 8).
 *
 * - Text: length counted in characters (Unicode code points, as PostgreSQL's varchar counts), not
 *   UTF-16 units; control characters (C0, DEL, C1) and unpaired surrogates refused.
 * - Dates: one parser, `parseIsoDate`, for 'yyyy-MM-dd' and 'yyyy-MM-dd HH:mm:ss': a real
 *   calendar date (no 0000-00-00, no 30th of February), hour 0–23, minute and second 0–59, year
 *   within [MIN_INPUT_YEAR, MAX_INPUT_YEAR].
 * - Ranges: `refuseReversed` refuses begin after end.
 *
 * Refusals are zod custom issues whose `params.input` names the rule (InputRule) with its
 * parameters; the API's error handler renders them as a 400 envelope in the caller's language
 * (apps/api/src/lib/input.messages.ts). The English `message` is the fallback.
 */

/** The rule a refused input broke: the key the server translates. */
export type InputRule = 'controlChars' | 'tooLong' | 'tooShort' | 'date' | 'dateTime' | 'dateOrDateTime' | 'rangeReversed' | 'timeZone';

export const MIN_INPUT_YEAR = 1900;
export const MAX_INPUT_YEAR = 2999;

/** C0 controls, DEL and C1 controls. */
const CONTROL_RE = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, but line breaks and tabs allowed (multi-line fields such as remarks). */
const CONTROL_MULTILINE_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A lone (unpaired) UTF-16 surrogate: not a character at all. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Length in characters (code points): '😀' is 1, as PostgreSQL counts it. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** True when `s` holds a control character (or a lone surrogate); `multiline` allows \n, \r and \t. */
export function hasControlChars(s: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTILINE_RE : CONTROL_RE).test(s) || LONE_SURROGATE_RE.test(s);
}

type Ctx = z.core.$RefinementCtx<string>;
function issue(ctx: Ctx, input: InputRule, message: string, params: Record<string, string | number> = {}) {
  ctx.addIssue({ code: 'custom', message, params: { input, ...params }, input: ctx.value });
}

export interface TextInputOptions {
  /** Allow \n, \r and \t (remarks-like fields). */
  multiline?: boolean;
  /** At least this many characters (after trimming). Default 0. */
  min?: number;
  /** Trim surrounding white space first (default true; passwords say false). */
  trim?: boolean;
}

/**
 * A text input of at most `max` characters (code points), control characters refused. Required
 * (a string must be sent); wrap with `optText` for optional filter fields where '' means "any".
 */
export function textInput(max: number, opts: TextInputOptions = {}) {
  const base = opts.trim === false ? z.string() : z.string().trim();
  return base.superRefine((s, ctx) => {
    if (hasControlChars(s, opts.multiline)) {
      issue(ctx, 'controlChars', 'must not contain control characters');
      return;
    }
    const n = charLength(s);
    if (n > max) issue(ctx, 'tooLong', `at most ${max} characters`, { max });
    else if (opts.min && n < opts.min) issue(ctx, 'tooShort', `at least ${opts.min} characters`, { min: opts.min });
  });
}

/** Multi-line text (\n, \r, \t allowed; other control characters refused). */
export const multilineTextInput = (max: number, opts: Omit<TextInputOptions, 'multiline'> = {}) => textInput(max, { ...opts, multiline: true });

/** Blank ('' or null) → undefined, so an empty filter field means "not filtered". */
export const blankToUndefined = <T extends z.ZodTypeAny>(s: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), s.optional());

/** An optional text filter: blank means "any". */
export const optText = (max = 64, opts: TextInputOptions = {}) => blankToUndefined(textInput(max, opts));

/** True for a zone name Intl knows (e.g. 'Asia/Shanghai', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(zone) || zone.length > 40) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name ('Asia/Tokyo', 'UTC'); anything else is refused with the rule `timeZone`. */
export const timeZoneInput = (opts: { blank?: boolean } = {}) =>
  z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      if (opts.blank && s === '') return;
      if (!isTimeZone(s)) issue(ctx, 'timeZone', 'must be a time zone such as Asia/Shanghai');
    });

// ---------------------------------------------------------------------------------------------
// Dates: the one parser.

const DATE_PART = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PART = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export interface IsoParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Whether the text carried a time part. */
  hasTime: boolean;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const daysInMonth = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : DAYS[m - 1]);

/**
 * The one date parser: 'yyyy-MM-dd' (`kind` 'date'), 'yyyy-MM-dd HH:mm:ss' ('dateTime') or either
 * ('either'). Returns the parts of a real calendar date and time, or null.
 */
export function parseIsoDate(s: string, kind: 'date' | 'dateTime' | 'either' = 'date'): IsoParts | null {
  if (typeof s !== 'string') return null;
  const m = (kind !== 'dateTime' ? DATE_PART.exec(s) : null) ?? (kind !== 'date' ? DATE_TIME_PART.exec(s) : null);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hasTime = m[4] !== undefined;
  const [hour, minute, second] = hasTime ? [Number(m[4]), Number(m[5]), Number(m[6])] : [0, 0, 0];
  if (year < MIN_INPUT_YEAR || year > MAX_INPUT_YEAR) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second, hasTime };
}

/** A real calendar date 'yyyy-MM-dd'. */
export const isIsoDate = (s: string) => parseIsoDate(s, 'date') !== null;
/** A real date and time 'yyyy-MM-dd HH:mm:ss'. */
export const isIsoDateTime = (s: string) => parseIsoDate(s, 'dateTime') !== null;

const yearsNote = `${MIN_INPUT_YEAR}–${MAX_INPUT_YEAR}`;

/** A real calendar date 'yyyy-MM-dd'. */
export const isoDate = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    if (!isIsoDate(s)) issue(ctx, 'date', `a real date yyyy-MM-dd (years ${yearsNote})`, { min: MIN_INPUT_YEAR, max: MAX_INPUT_YEAR });
  });

/** A real date and time 'yyyy-MM-dd HH:mm:ss' (hour 0–23). */
export const isoDateTime = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    if (!isIsoDateTime(s)) issue(ctx, 'dateTime', `a real date and time yyyy-MM-dd HH:mm:ss (years ${yearsNote})`, { min: MIN_INPUT_YEAR, max: MAX_INPUT_YEAR });
  });

/** Either a date 'yyyy-MM-dd' or a date and time 'yyyy-MM-dd HH:mm:ss'. */
export const isoDateOrDateTime = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    if (!parseIsoDate(s, 'either')) issue(ctx, 'dateOrDateTime', `a real date yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (years ${yearsNote})`, { min: MIN_INPUT_YEAR, max: MAX_INPUT_YEAR });
  });

/**
 * Comparable form of a parsed date: a date alone stands for the start of its day as a begin and
 * the end of its day as an end, so '2026-01-01' … '2026-01-01' is one day, not reversed.
 */
function sortKey(s: string, end: boolean): string | null {
  const p = parseIsoDate(s, 'either');
  if (!p) return null;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const time = p.hasTime ? `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}` : end ? '23:59:59' : '00:00:00';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${time}`;
}

/** True when both are dates (or date-times) and `begin` lies after `end`. */
export function isReversedRange(begin: unknown, end: unknown): boolean {
  if (typeof begin !== 'string' || typeof end !== 'string') return false;
  const b = sortKey(begin.trim(), false);
  const e = sortKey(end.trim(), true);
  return b !== null && e !== null && b > e;
}

/**
 * A check for an object schema refusing reversed ranges: each [begin, end] pair of field names
 * whose both values are present must have begin ≤ end. Use on the final (extended) schema:
 * `schema.superRefine(refuseReversed([['beginDate', 'endDate']]))`.
 */
export function refuseReversed(pairs: readonly (readonly [string, string])[]) {
  return (v: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>) => {
    for (const [b, e] of pairs) {
      if (isReversedRange(v[b], v[e])) ctx.addIssue({ code: 'custom', path: [e], message: `${b} must not be after ${e}`, params: { input: 'rangeReversed', begin: b, end: e }, input: v[e] });
    }
  };
}

/** The beginDate/endDate pair most filters carry. */
export const BEGIN_END = [['beginDate', 'endDate']] as const;
