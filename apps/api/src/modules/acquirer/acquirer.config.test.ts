import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { serve, tmpDir } from '../../../test/ops/spawn';
import { acquirerOf, sandboxInProductionWarning } from './acquirer';
import type { Deps } from '../../plugins/context';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
/** What a production server needs besides the gateway (PUBLIC_URL, SMTP_URL: network.test.ts, review.test.ts). */
const PROD = { NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com', SMTP_URL: 'smtp://127.0.0.1:25' };
const HTTP = { ACQUIRER: 'http', ACQUIRER_URL: 'https://gw.example.com/portal/v1', ACQUIRER_SIGNING_KEY: 'k'.repeat(32) };

/**
 * Issue 46: with NODE_ENV=production and no ACQUIRER a merchant's refund was answered "Approved" by
 * the sandbox without reaching any gateway. In production the server refuses to start unless
 * ACQUIRER names the real adapter (http), or the sandbox is named on purpose together with the
 * staging setting ACQUIRER_SANDBOX_IN_PRODUCTION=yes — which the banner and the log then warn about
 * at every start.
 */
describe('the gateway adapter in production (issue 46)', () => {
  it('no ACQUIRER in production: refused, naming http and the staging setting', () => {
    expect(() => loadConfig(PROD)).toThrow(/ACQUIRER: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...PROD, ACQUIRER: '' })).toThrow(/ACQUIRER: required when NODE_ENV=production.*ACQUIRER_SANDBOX_IN_PRODUCTION=yes/s);
  });

  it('ACQUIRER=sandbox in production: refused unless ACQUIRER_SANDBOX_IN_PRODUCTION=yes (exactly)', () => {
    expect(() => loadConfig({ ...PROD, ACQUIRER: 'sandbox' })).toThrow(/ACQUIRER=sandbox in production answers refunds and charges without any gateway/);
    expect(() => loadConfig({ ...PROD, ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'no' })).toThrow(/ACQUIRER_SANDBOX_IN_PRODUCTION=yes/);
    expect(() => loadConfig({ ...PROD, ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'true' })).toThrow(/ACQUIRER_SANDBOX_IN_PRODUCTION/);
    // Without ACQUIRER the staging setting alone is not enough: the sandbox is named on purpose.
    expect(() => loadConfig({ ...PROD, ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' })).toThrow(/ACQUIRER: required/);
    const staging = loadConfig({ ...PROD, ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes' });
    expect(staging.acquirer).toMatchObject({ kind: 'sandbox', sandboxInProduction: true });
    expect(sandboxInProductionWarning(staging)).toMatch(/reach NO gateway/);
  });

  it('ACQUIRER=http in production starts (with its URL and key) and talks to the gateway; no warning', () => {
    const c = loadConfig({ ...PROD, ...HTTP });
    expect(c.acquirer).toMatchObject({ kind: 'http', sandboxInProduction: false, url: HTTP.ACQUIRER_URL });
    expect(sandboxInProductionWarning(c)).toBeNull();
    expect(acquirerOf({ config: c } as unknown as Deps).name).toBe('http');
    expect(() => loadConfig({ ...PROD, ACQUIRER: 'http' })).toThrow(/ACQUIRER_URL and ACQUIRER_SIGNING_KEY/);
    expect(() => loadConfig({ ...PROD, ACQUIRER: 'gateway' })).toThrow(/ACQUIRER/);
  });

  it('outside production the sandbox stays the default, without a warning', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { NODE_ENV: 'development', ACQUIRER: 'sandbox' }]) {
      const c = loadConfig(env);
      expect(c.acquirer).toMatchObject({ kind: 'sandbox', sandboxInProduction: false });
      expect(sandboxInProductionWarning(c)).toBeNull();
    }
  });

  it('the real server: refuses to start in production without ACQUIRER; on the staging sandbox it warns in the banner and the log', async () => {
    const dataDir = tmpDir('portal-acq-prod-');
    try {
      // Refused before it opens the database: exit 1, the reason on stderr.
      const refused = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
        cwd: ROOT,
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ACQUIRER') && k !== 'DATABASE_URL')), ...PROD, DATA_DIR: dataDir, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      refused.stdout.on('data', (b) => (out += b));
      refused.stderr.on('data', (b) => (out += b));
      // A server that starts instead (the defect) is stopped after 30 s and fails the test.
      const code = await new Promise<number | null | 'started'>((resolve) => {
        const t = setTimeout(() => {
          refused.kill('SIGKILL');
          resolve('started');
        }, 30_000);
        refused.once('exit', (c) => {
          clearTimeout(t);
          resolve(c);
        });
      });
      expect(code).not.toBe('started');
      expect(code).not.toBe(0);
      expect(out).toMatch(/ACQUIRER: required when NODE_ENV=production/);
      expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false);

      const s = await serve(dataDir, { ...PROD, ACQUIRER: 'sandbox', ACQUIRER_SANDBOX_IN_PRODUCTION: 'yes', SEED_DEMO: 'false' });
      try {
        // The banner is printed once listening; wait for it.
        for (let i = 0; i < 50 && !/Ready in/.test(s.log()); i++) await new Promise((r) => setTimeout(r, 100));
        const log = s.log();
        expect(log).toMatch(/^ {2}WARNING: ACQUIRER=sandbox in production \(ACQUIRER_SANDBOX_IN_PRODUCTION=yes\).*reach NO gateway/m);
        const warn = log
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l))
          .find((l) => l.sandboxInProduction === true);
        expect(warn).toMatchObject({ level: 40, acquirer: 'sandbox', msg: expect.stringMatching(/reach NO gateway/) });
      } finally {
        s.proc.kill('SIGTERM');
        await s.exited;
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
