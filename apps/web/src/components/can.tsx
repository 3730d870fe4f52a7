import type { ReactNode } from 'react';
import { hasAny, type PermissionNeed } from '../lib/permissions';
import { usePermissions } from '../lib/session';

/**
 * Renders `children` only when the signed-in user holds at least one of `permission` (spec §6),
 * e.g. `<Can permission={Perm.txnRefund}><Button>Refund</Button></Can>`. The server checks
 * again: this only hides what it would refuse.
 */
export function Can({ permission, children, fallback = null }: { permission: PermissionNeed; children: ReactNode; fallback?: ReactNode }) {
  const held = usePermissions();
  return hasAny(held, permission) ? children : fallback;
}

/** Hook form of <Can>: `const canRefund = useCan(Perm.txnRefund)`. */
export function useCan(permission: PermissionNeed): boolean {
  return hasAny(usePermissions(), permission);
}
