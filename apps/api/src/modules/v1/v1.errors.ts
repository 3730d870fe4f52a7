import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Language } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { t, type MessageKey } from '../../lib/messages';
import { InvalidInput, issuesDetail, issuesOfValidation } from '../../lib/validation';

/**
 * The /v1 error model (issue 31): one shape for every refusal,
 * `{ error: { type, code, message, param, request_id } }` — `type` the class (what a client
 * branches on), `code` the precise reason, `message` in the key's language, `param` the input at
 * fault (or null), `request_id` to quote to support (also the X-Request-Id header).
 */
const V1_ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'idempotency_error', 'refund_error', 'rate_limit_error', 'api_error'] as const;
export type V1ErrorType = (typeof V1_ERROR_TYPES)[number];

export const v1ErrorSchema = z.object({
  error: z.object({
    type: z.enum(V1_ERROR_TYPES),
    code: z.string(),
    message: z.string(),
    param: z.string().nullable(),
    request_id: z.string(),
  }),
});

export class V1Error extends Error {
  constructor(
    readonly status: number,
    readonly type: V1ErrorType,
    readonly code: string,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly param: string | null = null,
    /** A message already in the caller's language (a service's refusal), instead of `key`. */
    readonly text?: string,
  ) {
    super(code);
  }
}

const TYPE_OF_STATUS: Record<number, [V1ErrorType, string]> = {
  400: ['invalid_request_error', 'invalid_request'],
  401: ['authentication_error', 'unauthenticated'],
  403: ['permission_error', 'forbidden'],
  404: ['not_found_error', 'resource_missing'],
  409: ['idempotency_error', 'conflict'],
  413: ['invalid_request_error', 'body_too_large'],
  415: ['invalid_request_error', 'unsupported_media_type'],
  429: ['rate_limit_error', 'rate_limited'],
};
/** The code of an AppError the services throw, by its message key (precise where a client can act on it). */
const CODE_OF_KEY: Partial<Record<MessageKey, string>> = {
  apiKeyMissing: 'api_key_missing',
  apiKeyInvalid: 'api_key_invalid',
  apiKeyRevoked: 'api_key_revoked',
  apiKeyExpired: 'api_key_expired',
  apiKeyIpRefused: 'ip_not_allowed',
  refundAmountInvalid: 'amount_invalid',
  notFound: 'resource_missing',
  opsMerchantLocked: 'merchant_locked',
};
const PARAM_OF_KEY: Partial<Record<MessageKey, string>> = { refundAmountInvalid: 'amount' };

/** The error body for any thrown error; `lang` = the key's language (or Accept-Language before it is known). */
export function v1ErrorOf(err: unknown, lang: Language, requestId: string): { status: number; body: z.infer<typeof v1ErrorSchema> } {
  const body = (status: number, type: V1ErrorType, code: string, message: string, param: string | null = null) => ({
    status,
    body: { error: { type, code, message, param, request_id: requestId } },
  });
  if (err instanceof V1Error) return body(err.status, err.type, err.code, err.text ?? t(lang, err.key, err.params), err.param);
  if (err instanceof InvalidInput)
    return body(400, 'invalid_request_error', 'parameter_invalid', t(lang, 'badRequest', { detail: issuesDetail(lang, err.issues) }), err.issues[0]?.path.map(String).join('.') || null);
  if (hasZodFastifySchemaValidationErrors(err as FastifyError)) {
    const issues = issuesOfValidation((err as FastifyError & { validation: Parameters<typeof issuesOfValidation>[0] }).validation);
    // An unknown parameter (strict schemas) is named as the param at fault.
    const param = issues[0]?.path.map(String).join('.') || (issues[0]?.code === 'unrecognized_keys' ? (issues[0].keys?.[0] ?? null) : null);
    return body(400, 'invalid_request_error', 'parameter_invalid', t(lang, 'badRequest', { detail: issuesDetail(lang, issues) }), param);
  }
  if (err instanceof AppError) {
    const [type, generic] = TYPE_OF_STATUS[err.httpStatus] ?? TYPE_OF_STATUS[400];
    const field = err.data && typeof err.data === 'object' && 'field' in err.data ? String((err.data as { field: unknown }).field) : (PARAM_OF_KEY[err.key] ?? null);
    return body(err.httpStatus >= 400 ? err.httpStatus : 400, type, CODE_OF_KEY[err.key] ?? generic, t(lang, err.key, err.params), field);
  }
  const status = (err as FastifyError)?.statusCode ?? 500;
  if (status === 429) return body(429, 'rate_limit_error', 'rate_limited', t(lang, 'tooMany'));
  if (status >= 400 && status < 500) {
    const [type, code] = TYPE_OF_STATUS[status] ?? TYPE_OF_STATUS[400];
    return body(status, type, code, t(lang, 'badRequest', { detail: (err as Error).message }));
  }
  return body(500, 'api_error', 'internal_error', t(lang, 'serverErrorRef', { ref: requestId }));
}

export function sendV1Error(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const lang = req.apiKey?.lang ?? req.lang ?? 'en';
  const { status, body } = v1ErrorOf(err, lang, String(req.id));
  if (status >= 500) req.log.error({ err }, 'unhandled error');
  return reply.status(status).send(body);
}

/** The documented error answers (each operation lists the ones it can give). */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (type invalid_request_error; param names the field — an unknown parameter is refused, named; idempotency_key_missing / idempotency_key_invalid for the Idempotency-Key header)',
  401: 'No key, or an unknown, revoked or expired key (type authentication_error)',
  403: 'The key lacks the permission (permission_missing), the address is not on its allow-list (ip_not_allowed), or the merchant is locked by the provider (merchant_locked) (type permission_error)',
  404: "Not found — also another merchant's record (type not_found_error)",
  409: 'Idempotency-Key reused with another body (type idempotency_error, code idempotency_key_reused) or its first request still running (idempotency_key_in_use); or the object is not in a state for it (type invalid_request_error: order_status_changed, export_not_ready)',
  422: 'The refund is refused: not refundable, or over the refundable amount (type refund_error)',
  429: 'Rate limit of the key reached, or too many failed authentications from this address: see the RateLimit-* and Retry-After headers (type rate_limit_error)',
  500: 'Server error; quote request_id to support (type api_error)',
};
