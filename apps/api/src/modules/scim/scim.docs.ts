/** The SCIM face's OpenAPI document: its shared schemas, the SCIM error format, each operation's tag, id, media type and answers. */
import { z } from 'zod';
import { SCIM_MEDIA, ERROR_SCHEMA } from './scim.errors';

/** The SCIM error answer, as the portal document describes it. */
export const scimErrorSchema = z
  .object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string() })
  .describe(`The SCIM error format (RFC 7644 §3.12): schemas [${ERROR_SCHEMA}], status, scimType (400/409), detail in Accept-Language`);
/** The same, as the document's JSON schema. */
const scimErrorJson = z.toJSONSchema(scimErrorSchema, { target: 'openapi-3.0' });
export const resource = z.record(z.string(), z.unknown());
export const errors = { 400: scimErrorSchema, 401: scimErrorSchema, 404: scimErrorSchema, 409: scimErrorSchema, 412: scimErrorSchema };
export const idParams = z.object({ id: z.string().max(64) });
export const listQuery = z.object({
  filter: z.string().max(500).optional().describe('one comparison: `userName eq "…"`, `externalId eq "…"`, `id eq "…"`, `emails.value eq "…"`; groups: `displayName eq "…"`'),
  startIndex: z.string().max(10).optional().describe('1-based; default 1'),
  count: z.string().max(10).optional().describe('default 100, at most 200'),
  attributes: z.string().max(200).optional(),
  excludedAttributes: z.string().max(200).optional().describe("`members` leaves the groups' members out (Entra ID asks so)"),
});

export const SCIM_DOC_DESCRIPTION = `SCIM 2.0 (RFC 7643/7644) provisioning of a merchant group's users and groups by its identity provider
(Entra ID, Okta, …). Authenticate with a SCIM token made in Team → Provisioning: \`Authorization: Bearer …\` — the token
decides the merchant group; another group's users and groups answer 404. Requests and answers are \`application/scim+json\`
(\`application/json\` is read too). Filters: one \`eq\` comparison (\`userName eq "…"\`); pages by \`startIndex\` and
\`count\`; every resource has an ETag (\`meta.version\`) and \`If-Match\` is honoured. Errors answer in the SCIM error
format \`{ schemas: [${ERROR_SCHEMA}], status, scimType?, detail }\` (detail in the token's language). See docs/scim.md.`;

type Json = Record<string, unknown>;

/** The operationId of a SCIM route: `GET /scim/v2/Users/:id` → `getScimUsersById`. */
export function scimOperationId(method: string, url: string): string {
  const words = url
    .replace(/^\/scim\/v2\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `By-${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return `${method.toLowerCase()}Scim${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (scimType invalidSyntax, invalidFilter, invalidValue, invalidPath, mutability …)',
  401: 'No SCIM token, or an unknown or revoked one',
  404: "Not found — also another merchant group's resource",
  409: 'uniqueness: the userName, e-mail or group name is taken',
  412: 'If-Match does not name the current version (ETag)',
  429: 'Too many requests (600 a minute per address)',
};

/**
 * Finishes one operation of the SCIM document: its tag and operationId from the path; answers in
 * application/scim+json; every error answer the SCIM error format; the resource a write takes
 * (read by the services, which answer 400 in the SCIM format for what they refuse); If-Match on
 * replace, patch and delete; 204 with no content.
 */
export function scimDocOperation<T extends { schema: unknown; url: string }>(out: T, method: string): T {
  const schema = { ...(out.schema as Json) } as Json & { response?: Json; headers?: Json };
  const tag = out.url.startsWith('/scim/v2/Users') ? 'scim-users' : out.url.startsWith('/scim/v2/Groups') ? 'scim-groups' : 'scim-discovery';
  const error = (s: number) => ({ ...(scimErrorJson as Json), description: ERROR_TEXT[s] ?? 'SCIM error' });
  const response: Json = {};
  for (const [code, r] of Object.entries(schema.response ?? {})) {
    if (code === '204') response[code] = { type: 'null', description: 'No content' };
    else if (code.startsWith('2')) response[code] = { ...(r as Json), description: code === '201' ? 'Created (Location and ETag headers)' : 'OK' };
  }
  for (const s of [400, 401, 404, 409, 412, 429]) {
    if (s === 404 && !out.url.includes(':')) continue;
    if ((s === 409 && method !== 'POST' && method !== 'PUT' && method !== 'PATCH') || (s === 412 && !['PUT', 'PATCH', 'DELETE'].includes(method))) continue;
    response[s] = error(s);
  }
  if (['POST', 'PUT', 'PATCH'].includes(method)) {
    schema.consumes = [SCIM_MEDIA, 'application/json'];
    schema.body = {
      type: 'object',
      additionalProperties: true,
      description:
        method === 'PATCH'
          ? 'A PatchOp: { schemas: [urn:ietf:params:scim:api:messages:2.0:PatchOp], Operations: [{ op, path?, value? }] }'
          : `The ${tag === 'scim-users' ? 'User' : 'Group'} resource (RFC 7643)`,
    };
  }
  if (['PUT', 'PATCH', 'DELETE'].includes(method)) {
    schema.headers = { type: 'object', properties: { 'if-match': { type: 'string', description: 'the ETag last read: 412 when the resource changed since' } } };
  }
  return { ...out, schema: { ...schema, tags: [tag], operationId: scimOperationId(method, out.url), produces: [SCIM_MEDIA], response } } as T;
}
