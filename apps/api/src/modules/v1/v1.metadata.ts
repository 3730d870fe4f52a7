import { z } from 'zod';

/** Stripe's rules for metadata (issue 50): at most 50 keys, a key at most 40 characters, a value at most 500, strings only. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

const KEY_RE = /^[^\u0000-\u001f[\]]+$/;

/**
 * metadata as a request gives it: an object of string values. On create a key with an empty value
 * is not stored; on update it removes that key. Refused (400, param `metadata.<key>` or `metadata`):
 * more than 50 keys, a key longer than 40 characters or with control characters or brackets, a value
 * that is not a string or longer than 500 characters.
 */
export const metadataInput = z
  .record(z.string().min(1).max(METADATA_KEY_MAX).regex(KEY_RE), z.string().max(METADATA_VALUE_MAX))
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, { message: `at most ${METADATA_MAX_KEYS} keys` })
  .describe(`Up to ${METADATA_MAX_KEYS} keys (each at most ${METADATA_KEY_MAX} characters) with string values (at most ${METADATA_VALUE_MAX} characters); an empty value removes its key`);

/** metadata as an object answers it (lib/v1-registry.ts: the transaction's owner names it too). */
export { metadataSchema } from '../../lib/v1-registry';

/** The metadata to store at creation: the given keys without empty values (none: {}). */
export const metadataToStore = (m: Record<string, string> | undefined): Record<string, string> => Object.fromEntries(Object.entries(m ?? {}).filter(([, v]) => v !== ''));
