import { AuditAction } from '../../lib/audit';

/** Audit actions of the account module (every one written with user, merchant, address and time). */
export const AccountAudit = {
  activationSent: 'account.activation.sent',
  activated: 'account.activated',
  passwordChanged: 'account.password.changed',
  resetAsked: 'account.reset.asked',
  resetSent: 'account.reset.sent',
  resetUsed: 'account.reset.used',
  phoneCode: 'account.phone.code',
  phoneBound: 'account.phone.bound',
  wechatBound: 'account.wechat.bound',
  wechatUnbound: 'account.wechat.unbound',
  wechatLogin: 'auth.login.wechat',
  totpEnabled: 'account.totp.enabled',
  totpDisabled: 'account.totp.disabled',
  recoveryCodeUsed: AuditAction.recoveryCodeUsed,
  sessionRevoked: 'account.session.revoked',
  requireTotp: 'merchant.require_totp',
  timeZoneChanged: 'account.timezone.changed',
  passkeyRegistered: 'account.passkey.registered',
  passkeyRenamed: 'account.passkey.renamed',
  passkeyRemoved: 'account.passkey.removed',
} as const;
