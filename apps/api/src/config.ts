import path from 'node:path';
import { z } from 'zod';

/** Environment, checked once at boot (a wrong value stops the server with a clear message). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Merchant Portal <no-reply@portal.local>'),
  /** Public base URL of the portal, used in e-mailed links. */
  PUBLIC_URL: z.string().optional(),
  /** The platform time zone: the wire speaks it (spec §9). */
  PLATFORM_TZ: z.string().default('Asia/Shanghai'),
  LOG_LEVEL: z.string().default('info'),
  /** Seed the demo data on first start (never in production). */
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  /** Days of demo transactions to generate on first start. */
  SEED_DAYS: z.coerce.number().int().min(0).max(400).default(90),
  /** Access-token lifetime; 15 minutes unless shortened for end-to-end tests. */
  ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(1).max(3600).default(15 * 60),
  /**
   * How long a looked-up session may be reused by this process (ms; 0 = look up on every call).
   * Writes through this process drop it at once; this is the bound for changes made by another
   * server process (see docs/decisions/008-session-cache.md).
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl?: string;
  platformTz: string;
  logLevel: string;
  seedDemo: boolean;
  seedDays: number;
  accessTokenSeconds: number;
  sessionCacheMs: number;
  webDist: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL,
    platformTz: e.PLATFORM_TZ,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === 'true' && e.NODE_ENV !== 'production',
    seedDays: e.SEED_DAYS,
    accessTokenSeconds: e.ACCESS_TOKEN_SECONDS,
    sessionCacheMs: e.SESSION_CACHE_MS,
    webDist: path.resolve(import.meta.dirname, '../../web/dist'),
  };
}
