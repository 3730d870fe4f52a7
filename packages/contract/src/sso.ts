import { z } from 'zod';
import { textInput } from './input';

/**
 * Enterprise sign-in (issue 51, docs/sso.md): a merchant group's identity provider (OIDC or SAML
 * 2.0), the mapping of the provider's groups to the portal's roles, verified e-mail domains and
 * the "SSO required" policy with its break-glass administrators. Screen: Team → Sign-in;
 * permission team:sso:manage.
 */

/** Roles an SSO user may be given: the presets below administrator, or a named role (CUSTOM + roleId). */
export const SSO_ROLES = ['FINANCE', 'REFUNDS', 'SUPPORT', 'READONLY', 'CUSTOM'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];

const httpsUrl = textInput(500).pipe(z.url({ protocol: /^https?$/ }));
const roleChoice = { role: z.enum(SSO_ROLES), roleId: z.coerce.number().int().positive().max(2147483647).optional() };

export const ssoOidcSaveSchema = z
  .object({
    kind: z.literal('oidc'),
    name: textInput(80).pipe(z.string().min(1)),
    issuer: httpsUrl,
    clientId: textInput(200).pipe(z.string().min(1)),
    /** Omitted on an edit: the stored secret stays. */
    clientSecret: textInput(500, { trim: false }).optional(),
    groupsClaim: textInput(80)
      .pipe(z.string().regex(/^[A-Za-z0-9_:./-]{1,80}$/))
      .default('groups'),
    enabled: z.boolean().default(true),
    /** No mapping matched: this role, or none (refused). */
    defaultRole: z.enum(SSO_ROLES).nullable().default(null),
    defaultRoleId: z.coerce.number().int().positive().max(2147483647).nullable().optional(),
  })
  .strict();

export const ssoSamlSaveSchema = z
  .object({
    kind: z.literal('saml'),
    name: textInput(80).pipe(z.string().min(1)),
    /** The IdP's metadata XML, or where to fetch it. */
    metadataXml: z.string().max(200_000).optional(),
    metadataUrl: httpsUrl.optional(),
    groupsClaim: textInput(200).pipe(z.string().min(1)).default('groups'),
    enabled: z.boolean().default(true),
    defaultRole: z.enum(SSO_ROLES).nullable().default(null),
    defaultRoleId: z.coerce.number().int().positive().max(2147483647).nullable().optional(),
  })
  .strict()
  .refine((v) => !!v.metadataXml !== !!v.metadataUrl, { message: 'metadataXml or metadataUrl, one of them' });

export const ssoProviderSaveSchema = z.union([ssoOidcSaveSchema, ssoSamlSaveSchema]);
export type SsoProviderSave = z.infer<typeof ssoProviderSaveSchema>;

export const ssoMappingSaveSchema = z.object({ claimValue: textInput(200).pipe(z.string().min(1)), ...roleChoice, priority: z.coerce.number().int().min(0).max(1000).default(100) }).strict();
export const ssoIdSchema = z.object({ id: z.coerce.number().int().positive().max(2147483647) }).strict();

export const DOMAIN_RE = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const ssoDomainSchema = z.object({ domain: textInput(253).pipe(z.string().toLowerCase().regex(DOMAIN_RE, 'a domain such as example.com')) }).strict();
export const ssoPolicySchema = z.object({ ssoRequired: z.boolean(), breakGlass: z.array(z.coerce.number().int().positive().max(2147483647)).max(10) }).strict();

export const ssoProviderSchema = z.object({
  id: z.number(),
  merId: z.string(),
  kind: z.enum(['oidc', 'saml']),
  name: z.string(),
  enabled: z.boolean(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  hasSecret: z.boolean(),
  groupsClaim: z.string(),
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  defaultRole: z.enum(SSO_ROLES).nullable(),
  defaultRoleId: z.number().nullable(),
  /** Where the provider sends the browser back (register it at the provider). */
  redirectUri: z.string(),
  /** SAML: the portal's entity id (audience) and metadata URL. */
  spEntityId: z.string(),
  spMetadataUrl: z.string(),
});
export type SsoProvider = z.infer<typeof ssoProviderSchema>;
export const ssoMappingSchema = z.object({ id: z.number(), claimValue: z.string(), role: z.enum(SSO_ROLES), roleId: z.number().nullable(), roleName: z.string().nullable(), priority: z.number() });
export type SsoMapping = z.infer<typeof ssoMappingSchema>;
export const ssoDomainRowSchema = z.object({
  id: z.number(),
  domain: z.string(),
  recordName: z.string(),
  recordValue: z.string(),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
});
export type SsoDomainRow = z.infer<typeof ssoDomainRowSchema>;
export const ssoConfigSchema = z.object({
  merId: z.string(),
  provider: ssoProviderSchema.nullable(),
  mappings: z.array(ssoMappingSchema),
  domains: z.array(ssoDomainRowSchema),
  ssoRequired: z.boolean(),
  breakGlass: z.array(z.number()),
  /** The group's administrators (candidates for break-glass). */
  admins: z.array(z.object({ id: z.number(), username: z.string() })),
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type SsoConfig = z.infer<typeof ssoConfigSchema>;

/** The public e-mail-first step of the sign-in page (zod-free callers send `{email}`). */
export const ssoDiscoverSchema = z.object({ email: textInput(254).pipe(z.string().toLowerCase().email()) }).strict();
export const ssoTicketSchema = z.object({ ticket: textInput(100).pipe(z.string().regex(/^[A-Za-z0-9_-]{20,100}$/)) }).strict();
