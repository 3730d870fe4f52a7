import { useSyncExternalStore } from 'react';
import type { MerchantInfo, UserInfo } from '@portal/contract';

/**
 * The signed-in session shared by every screen: the user (routers, permissions) and the merchant
 * info, loaded once on entry (spec §4). A tiny external store so any module may read or reset it.
 */
export interface SessionState {
  user: UserInfo | null;
  merchant: MerchantInfo | null;
}

const EMPTY: SessionState = { user: null, merchant: null };
let state: SessionState = EMPTY;
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function setSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

export function resetSession(): void {
  state = EMPTY;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The signed-in user; only inside the authenticated shell, where it is always loaded. */
export function useUser(): UserInfo {
  const { user } = useSession();
  if (!user) throw new Error('useUser() outside the signed-in shell');
  return user;
}

/** The merchant info of the signed-in user (merchant choices, currencies, contractor). */
export function useMerchant(): MerchantInfo {
  const { merchant } = useSession();
  if (!merchant) throw new Error('useMerchant() outside the signed-in shell');
  return merchant;
}

/** The permission codes the user holds (empty when signed out). */
export function usePermissions(): readonly string[] {
  return useSession().user?.permissions ?? [];
}
