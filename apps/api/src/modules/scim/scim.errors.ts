import type { FastifyReply } from 'fastify';
import type { Language } from '@portal/contract';
import { t, type MessageKey } from '../../lib/messages';

/** SCIM's media type (RFC 7644 §3.1): every answer of /scim/v2 carries it. */
export const SCIM_MEDIA = 'application/scim+json';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The `scimType` of a 400 or 409 (RFC 7644 §3.12). */
export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

/** An error answered in the SCIM error format: `{ schemas, status, scimType?, detail }`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly scimType?: ScimType,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

export const scimNotFound = () => new ScimError(404, 'scimNotFound');
export const invalidValue = (field: string) => new ScimError(400, 'scimInvalidValue', 'invalidValue', { field });

export function sendScimError(reply: FastifyReply, lang: Language, e: ScimError) {
  return reply
    .status(e.status)
    .type(SCIM_MEDIA)
    .send({ schemas: [ERROR_SCHEMA], status: String(e.status), ...(e.scimType ? { scimType: e.scimType } : {}), detail: t(lang, e.key, e.params) });
}
