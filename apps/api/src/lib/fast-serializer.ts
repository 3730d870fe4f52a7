import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type Json = { [k: string]: unknown };

/**
 * `anyOf: [X, {type: 'null'}]` (zod's nullable) as X with `nullable: true`: fast-json-stringify
 * serializes that directly, where an anyOf makes it validate the value against each branch first.
 */
function nullableInPlace(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(nullableInPlace);
  if (!s || typeof s !== 'object') return s;
  const o = Object.fromEntries(Object.entries(s as Json).map(([k, v]) => [k, nullableInPlace(v)])) as Json;
  const any = o.anyOf as Json[] | undefined;
  if (any?.length === 2 && any.some((b) => b.type === 'null')) {
    const { anyOf: _, ...rest } = o;
    return { ...rest, ...any.find((b) => b.type !== 'null'), nullable: true };
  }
  return o;
}

/**
 * The serializer of a route answered on every screen load (the transaction list): fast-json-stringify
 * compiled from the route's zod schema, as Fastify does for JSON-schema routes, in place of the zod
 * type provider's check-then-JSON.stringify (zod's parse of a page was ~9 % of the list call's CPU,
 * decision 054). Properties the schema does not name are left out, as zod's check strips them; a
 * required property missing throws. Unlike zod it does not check values: the handler's return type
 * (the schema's own inferred type) is what keeps them right.
 */
export const fastSerializerCompiler = ({ schema }: { schema: unknown }): ((data: unknown) => string) =>
  fastJson(nullableInPlace(z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7' })) as Parameters<typeof fastJson>[0]);
