import type { Deps } from '../../plugins/context';
import type { Acquirer } from './acquirer.types';
import { createHttpAcquirer } from './http.adapter';
import { createSandboxAdapter } from './sandbox.adapter';

const cache = new WeakMap<Deps, Acquirer>();

/** The gateway this app talks to, chosen by configuration (ACQUIRER: sandbox by default, or http). One per app. */
export function acquirerOf(deps: Deps): Acquirer {
  let a = cache.get(deps);
  if (!a) {
    const c = deps.config.acquirer;
    a =
      c?.kind === 'http' && c.url && c.signingKey
        ? createHttpAcquirer({ url: c.url, signingKey: c.signingKey, keyId: c.keyId, timeoutMs: c.timeoutMs, retries: c.retries, retryDelayMs: c.retryDelayMs })
        : createSandboxAdapter();
    cache.set(deps, a);
  }
  return a;
}

/** How long the asker's first send may take, all retries included: the job leaves the operation alone that long. */
export function firstSendLeaseMs(deps: Deps): number {
  const c = deps.config.acquirer;
  if (c?.kind !== 'http') return 30_000;
  const delay = c.retryDelayMs ?? 200;
  return (c.retries + 1) * c.timeoutMs + delay * 2 ** (c.retries + 1) + 5_000;
}

/**
 * Issue 46: a NODE_ENV=production server running the sandbox (allowed only with
 * ACQUIRER_SANDBOX_IN_PRODUCTION=yes, for staging) says so at every start, in the banner and the log:
 * its refunds and charges are "approved" without reaching any gateway. Null otherwise.
 */
export function sandboxInProductionWarning(config: Pick<Deps['config'], 'acquirer'>): string | null {
  if (!config.acquirer?.sandboxInProduction) return null;
  return 'ACQUIRER=sandbox in production (ACQUIRER_SANDBOX_IN_PRODUCTION=yes): refunds, voids and charges are answered by the built-in sandbox and reach NO gateway — a staging server only; set ACQUIRER=http for real money';
}
