import type { SsoConfig, SsoDomainRow, SsoMapping, SsoProvider, SsoRole } from '../sso';
import type { LoginResult } from '../auth';
import { Perm } from '../permissions';
import { download, get, post, type RedirectAnswer } from './endpoint';

/** GET /sso/step-up (issue 51): how this user confirms a refund, and whether the session's step-up holds now. */
export interface StepUpOptions {
  sso: boolean;
  password: boolean;
  active: boolean;
}
interface ProviderForm {
  name: string;
  groupsClaim: string;
  enabled: boolean;
  defaultRole: SsoRole | null;
  defaultRoleId?: number | null;
}
export interface OidcForm extends ProviderForm {
  issuer: string;
  clientId: string;
  clientSecret?: string;
}
export interface SamlForm extends ProviderForm {
  metadataXml?: string;
  metadataUrl?: string;
}
export type SsoPolicy = { ssoRequired: boolean; breakGlass: number[] };

/** Enterprise sign-in (issue 51): the sign-in steps, the step-up, Team → Sign-in's settings. */
export const SsoApi = {
  discover: post<{ email: string }, { sso: boolean }>('/api/sso/discover', 'public'),
  start: post<{ email: string }, { url: string }>('/api/sso/start', 'public'),
  oidcCallback: get<{ code?: string; state?: string }, RedirectAnswer>('/api/sso/oidc/callback', 'public'),
  samlAcs: post<{ SAMLResponse: string; RelayState: string }, RedirectAnswer>('/api/sso/saml/acs', 'public'),
  samlMetadata: download<{ merId: string }>('/api/sso/saml/:merId/metadata', 'public'),
  login: post<{ ticket: string }, LoginResult>('/api/sso/login', 'public'),
  stepUp: get<void, StepUpOptions>('/api/sso/step-up', 'signed-in'),
  stepUpStart: post<void, { url: string }>('/api/sso/step-up/start', 'signed-in'),
  stepUpDone: download<{ ok?: '0' | '1' }>('/api/sso/step-up/done', 'public'),
  config: get<void, SsoConfig>('/api/sso/config', Perm.teamSsoManage),
  saveProvider: post<(OidcForm & { kind: 'oidc' }) | (SamlForm & { kind: 'saml' }), SsoProvider>('/api/sso/provider', Perm.teamSsoManage, 'json'),
  removeProvider: post<void, null>('/api/sso/provider/remove', Perm.teamSsoManage),
  saveMapping: post<{ claimValue: string; role: SsoRole; roleId?: number; priority: number }, SsoMapping[]>('/api/sso/mapping', Perm.teamSsoManage, 'json'),
  removeMapping: post<{ id: number }, null>('/api/sso/mapping/remove', Perm.teamSsoManage),
  claimDomain: post<{ domain: string }, SsoDomainRow>('/api/sso/domain', Perm.teamSsoManage),
  verifyDomain: post<{ id: number }, SsoDomainRow>('/api/sso/domain/verify', Perm.teamSsoManage),
  removeDomain: post<{ id: number }, null>('/api/sso/domain/remove', Perm.teamSsoManage),
  savePolicy: post<SsoPolicy, SsoPolicy>('/api/sso/policy', Perm.teamSsoManage, 'json'),
} as const;
