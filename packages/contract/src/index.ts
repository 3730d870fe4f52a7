export * from './codes';
export * from './api';
export * from './auth';
export * from './permissions';
export * from './notice';
export * from './money';
export * from './brands';
export * from './txn';
export * from './files';
export * from './payments';
export * from './paybylink';
export * from './report';
export * from './input';
export * from './account';
export * from './team';
export * from './store';
export * from './merchant';
export * from './schedule';
export * from './search';
export * from './views';
export * from './webhooks';
export * from './developer';
export * from './ops';
export * from './ops-runs';
export * from './ops-rates';
export * from './ops-disputes';
export * from './approvals';
export * from './access';
export * from './ops-notices';
export * from './render';
// Issue 51: enterprise sign-in (SSO).
export * from './sso';
// Issue 51: SCIM provisioning and the sign-in IP allow-list.
export * from './scim';
// Bank statements and matching (issue 49 §2).
export * from './bankrec';
export * from './pay-methods';
export * from './trail';
