import { z } from 'zod';
import { V1Error } from './v1.errors';

/**
 * `expand[]` (issue 50): a field named here answers its object inline instead of its id. The
 * querystring gives `expand[]=a&expand[]=b` (or one value); a name the operation cannot expand
 * answers 400 naming it (param `expand[]`).
 */
export const expandQuery = (allowed: readonly string[]) =>
  z
    .union([z.string().max(60), z.array(z.string().max(60)).max(10)])
    .optional()
    .describe(`expand[]=${allowed.join(' / expand[]=')}: the object inline instead of its id`);

export function expandsOf(given: string | string[] | undefined, allowed: readonly string[]): Set<string> {
  const list = given === undefined ? [] : Array.isArray(given) ? given : [given];
  for (const e of list) {
    if (!allowed.includes(e)) throw new V1Error(400, 'invalid_request_error', 'expand_invalid', 'v1ExpandInvalid', { expand: e.slice(0, 60), allowed: allowed.join(', ') }, 'expand[]');
  }
  return new Set(list);
}
