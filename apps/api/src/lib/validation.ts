import type { z } from 'zod';
import { Code, type InputRule, type Language } from '@portal/contract';
import { AppError } from './errors';
import { t, type MessageKey } from './messages';

/**
 * Refused input → one text in the caller's language. The strict primitives of the contract
 * (packages/contract/src/input.ts) name their rule in `params.input`; zod's own checks (types,
 * enums, numbers, formats) are named by their issue code. Route schemas (through Fastify's
 * validation error) and hand-parsed parameters (`invalidInput`) use the same texts.
 */
export interface IssueLike {
  path: PropertyKey[];
  code: string;
  message: string;
  params?: { input?: InputRule } & Record<string, unknown>;
  expected?: unknown;
  maximum?: unknown;
  minimum?: unknown;
  values?: unknown[];
  keys?: string[];
  input?: unknown;
  origin?: string;
}

const RULE_KEYS: Record<InputRule, MessageKey> = {
  controlChars: 'inputControlChars',
  tooLong: 'inputTooLong',
  tooShort: 'inputTooShort',
  date: 'inputDate',
  dateTime: 'inputDateTime',
  dateOrDateTime: 'inputDateOrDateTime',
  rangeReversed: 'inputRangeReversed',
  timeZone: 'inputTimeZone',
};

const str = (v: unknown) => (typeof v === 'bigint' ? v.toString() : String(v));
const params = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? v : str(v)]));

/** One issue in `lang`. */
function issueText(lang: Language, i: IssueLike): string {
  const rule = i.params?.input;
  if (rule && rule in RULE_KEYS) return t(lang, RULE_KEYS[rule], params(i.params!));
  switch (i.code) {
    case 'invalid_type':
      // zod 4 leaves the input out of its issues; its message says what was received.
      return i.message.endsWith('received undefined') ? t(lang, 'inputRequired') : t(lang, 'inputWrongType', { expected: str(i.expected) });
    case 'too_big':
      return i.origin === 'string' ? t(lang, 'inputTooLong', { max: str(i.maximum) }) : t(lang, 'inputTooBig', { max: str(i.maximum) });
    case 'too_small':
      return i.origin === 'string' ? t(lang, 'inputTooShort', { min: str(i.minimum) }) : t(lang, 'inputTooSmall', { min: str(i.minimum) });
    case 'invalid_value':
      return t(lang, 'inputOneOf', { values: (i.values ?? []).map(str).join(', ') });
    case 'invalid_format': {
      // A schema's own hint (e.g. 'merchant id') is kept; zod's default English sentence is not.
      const hint = i.message && !i.message.startsWith('Invalid') ? ` (${i.message})` : '';
      return t(lang, 'inputFormat', { hint });
    }
    case 'unrecognized_keys':
      return t(lang, 'inputUnknownKeys', { keys: (i.keys ?? []).join(', '), count: (i.keys ?? []).length });
    default:
      return i.message && !i.message.startsWith('Invalid') ? i.message : t(lang, 'inputInvalid');
  }
}

/** 'field: text; field: text' in `lang`. */
export function issuesDetail(lang: Language, issues: readonly IssueLike[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'input'}: ${issueText(lang, i)}`).join('; ');
}

/** Fastify's validation entries (fastify-type-provider-zod) back into zod issues. */
export function issuesOfValidation(validation: readonly { instancePath: string; keyword: string; message?: string; params: unknown }[]): IssueLike[] {
  return validation.map((v) => {
    const p = (v.params ?? {}) as Record<string, unknown>;
    const path = v.instancePath.replace(/^\//, '');
    return { ...p, path: path ? path.split('/') : [], code: v.keyword, message: v.message ?? '' } as IssueLike;
  });
}

/** A refused input found outside a route schema: a 400 envelope whose text follows the caller's language. */
export class InvalidInput extends AppError {
  constructor(readonly issues: readonly IssueLike[]) {
    super(Code.BAD_REQUEST, 'badRequest', { detail: issuesDetail('en', issues) }, 400);
  }
}

/** The error for a failed `safeParse`. */
export const invalidInput = (e: z.ZodError) => new InvalidInput(e.issues as unknown as IssueLike[]);

/** begin after end (a range checked outside a schema). */
export const reversedRange = (begin = 'beginDate', end = 'endDate') =>
  new InvalidInput([{ path: [end], code: 'custom', message: `${begin} must not be after ${end}`, params: { input: 'rangeReversed', begin, end } }]);

/** A range whose ends are both needed. */
export const rangeRequired = (begin = 'beginDate', end = 'endDate') => new AppError(Code.BAD_REQUEST, 'inputRangeRequired', { begin, end }, 400);

/** A range longer than three months (spec §5). */
export const rangeTooLong = () => new AppError(Code.BAD_REQUEST, 'reportRangeTooLong', {}, 400);

/** Parses with `schema` or throws the 400 envelope. */
export function parseInput<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const p = schema.safeParse(value);
  if (!p.success) throw invalidInput(p.error);
  return p.data;
}
