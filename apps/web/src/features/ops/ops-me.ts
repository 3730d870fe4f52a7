import { createContext, use } from 'react';
import type { OpsMe, OpsRole } from '@portal/contract';

export const OpsMeContext = createContext<OpsMe | null>(null);

/** The signed-in operator (inside the ops shell). */
export function useOperator(): OpsMe {
  const me = use(OpsMeContext);
  if (!me) throw new Error('no operator');
  return me;
}

/** Whether the operator's role may do what the server allows `roles` (the administrator always). */
export const mayDo = (me: OpsMe, roles: readonly OpsRole[]) => me.role === 'administrator' || roles.includes(me.role);
