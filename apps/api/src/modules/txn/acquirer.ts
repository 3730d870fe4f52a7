import type { Deps } from '../../plugins/context';
import { createSandboxAcquirer, type SandboxAcquirer } from '../payments';

/** The gateway the portal asks (refund, void, charge, status): chosen by configuration (decision 033). */

const cache = new WeakMap<Deps, SandboxAcquirer>();

/**
 * The sandbox's own ledger side, one per app: resolves processing rows the sandbox made that no
 * gateway operation stands behind (demo data, rows from before decision 033).
 */
export function sandboxLedgerOf(deps: Deps): SandboxAcquirer {
  let a = cache.get(deps);
  if (!a) {
    a = createSandboxAcquirer(deps);
    cache.set(deps, a);
  }
  return a;
}
