import { z } from 'zod';

/**
 * The `/v1` document's named schemas (issue 50): a zod registry of its own — the portal's document
 * (`/api/docs`) is not touched — that the face's transform hands to fastify-type-provider-zod
 * (`createJsonSchemaTransform` / `createJsonSchemaTransformObject` with `schemaRegistry`). A schema
 * registered here is written once under `components.schemas.<id>` and every route that uses it
 * (answer, list item, webhook event) points at it with `$ref`, so a generated client has a type to
 * name. An input schema (a body) is written as `<id>Input`.
 *
 * A new /v1 route: `named(schema, 'Thing')` on the object it answers (a distinct zod object — the
 * registry maps an object to one id, so `.extend({})` a schema shared with the portal first).
 */
export const v1Registry = z.registry<{ id: string; description?: string }>();

export function named<T extends z.ZodType>(schema: T, id: string, description?: string): T {
  v1Registry.add(schema, description ? { id, description } : { id });
  return schema;
}

/** metadata as an object answers it. */
export const metadataSchema = named(
  z.record(z.string(), z.string()).describe('What the merchant attached (up to 50 string keys and values); {} when none'),
  'Metadata',
  'Key-value pairs the merchant attached to the object (returned in the object, in /v1/events and in the webhooks)',
);
