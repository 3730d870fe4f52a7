import type { Deps } from '../../plugins/context';
import { createSandboxAcquirer } from '../payments/sandbox.acquirer';

type Acquirer = ReturnType<typeof createSandboxAcquirer>;
const cache = new WeakMap<Deps, Acquirer>();

/** The acquirer the transactions module talks to (the sandbox acquirer of the payment core), one per app. */
export function acquirerOf(deps: Deps): Acquirer {
  let a = cache.get(deps);
  if (!a) {
    a = createSandboxAcquirer(deps);
    cache.set(deps, a);
  }
  return a;
}
