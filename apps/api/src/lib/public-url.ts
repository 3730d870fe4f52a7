import type { Config } from '../config';

/** Base of links in e-mails (activation, approvals, access reviews): PUBLIC_URL, else this server's own address. */
export function publicBase(deps: { config: Pick<Config, 'publicUrl' | 'host' | 'port'> }): string {
  if (deps.config.publicUrl) return deps.config.publicUrl.replace(/\/+$/, '');
  const host = !deps.config.host || deps.config.host === '0.0.0.0' || deps.config.host === '::' ? 'localhost' : deps.config.host;
  return `http://${host}:${deps.config.port}`;
}
