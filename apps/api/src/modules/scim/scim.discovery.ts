/**
 * The discovery documents of /scim/v2 (RFC 7643 §5–7, RFC 7644 §4): what this service provider
 * supports — PATCH yes, bulk and sort no, filter (one `eq` comparison), ETags yes, bearer tokens.
 */
import { GROUP_SCHEMA } from './scim.groups';
import { USER_SCHEMA } from './scim.users';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: `${base}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: 'A token made in Team → Provisioning: Authorization: Bearer scim_…', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/scim/v2/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [RT_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A portal user of the merchant group',
      schema: USER_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/User` },
    },
    {
      schemas: [RT_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A directory group; mapped to a named role in Team → Provisioning',
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/Group` },
    },
  ];
}

const attr = (name: string, type: string, o: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...o,
});

export function schemas(base: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'User account',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server' }),
        attr('externalId', 'string', { caseExact: true }),
        attr('name', 'complex', { subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string', { mutability: 'readOnly' })] }),
        attr('displayName', 'string'),
        attr('active', 'boolean'),
        attr('emails', 'complex', { multiValued: true, subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')] }),
        attr('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attr('value', 'string'), attr('display', 'string'), attr('$ref', 'reference')] }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/scim/v2/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'Group',
      attributes: [
        attr('displayName', 'string', { required: true, uniqueness: 'server' }),
        attr('externalId', 'string', { caseExact: true }),
        attr('members', 'complex', {
          multiValued: true,
          subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' }), attr('$ref', 'reference', { mutability: 'immutable' })],
        }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/scim/v2/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}
