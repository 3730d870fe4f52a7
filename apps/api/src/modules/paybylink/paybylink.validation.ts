import { Code, toMinor, truthy, type Language, type PayByLinkForm, type PblIssue, type PblRule } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { t, type MessageKey } from '../../lib/messages';

const RULE_KEY: Record<PblRule, MessageKey> = {
  required: 'pblRequired',
  greaterThanZero: 'pblGreaterThanZero',
  notLessThanOne: 'pblNotLessThanOne',
  positiveInteger: 'pblPositiveInteger',
  notNegative: 'pblNotNegative',
  decimals: 'pblDecimals',
  invalidEmail: 'pblInvalidEmail',
  inputEmailTips: 'pblInputEmailTips',
  goodsNameTips: 'pblGoodsNameTips',
  attachmentTips: 'pblAttachmentTips',
  currencyNotEnabled: 'pblCurrencyNotEnabled',
  tooLong: 'pblTooLong',
  validDays: 'pblValidDays',
  amountTooLarge: 'pblAmountTooLarge',
  totalMismatch: 'pblTotalMismatch',
};

/**
 * The form's problems as one error: code 400, msg = the first problem's message (spec §5/§8
 * wording, in the caller's language), data.errors = every problem by field, so the screen can put
 * each message under its field.
 */
export function validationError(issues: PblIssue[], lang: Language): AppError {
  const errors = issues.map((i) => ({ field: i.field, rule: i.rule, message: t(lang, RULE_KEY[i.rule], i.params ?? {}) }));
  const first = issues[0];
  return new AppError(Code.BAD_REQUEST, RULE_KEY[first.rule], first.params ?? {}, 400, { field: first.field, errors });
}

export const fieldError = (field: keyof PayByLinkForm, key: MessageKey, lang: Language, params: Record<string, string | number> = {}) =>
  new AppError(Code.BAD_REQUEST, key, params, 400, { field, errors: [{ field, rule: key, message: t(lang, key, params) }] });

/** The checked form in stored units (minor units of the currency). */
export interface OrderValues {
  totalAmount: number;
  goodsPrice: number;
  goodsQuantity: number;
  logFee: number;
  sendEmail: boolean;
}

export function orderValues(f: PayByLinkForm, currency: string): OrderValues {
  return {
    totalAmount: toMinor(f.totalAmount!.trim(), currency),
    goodsPrice: toMinor(f.goodsPrice!.trim(), currency),
    goodsQuantity: Number(f.goodsQuantity!.trim()),
    logFee: f.logFee?.trim() ? toMinor(f.logFee.trim(), currency) : 0,
    sendEmail: truthy(f.sendEmailChecked),
  };
}

export const trimOrNull = (s: string | undefined | null) => {
  const v = s?.trim();
  return v ? v : null;
};
