import path from 'node:path';
import { envSchema, parseTrustProxy } from './config.env';
import { API_ROOT } from './lib/package-root';

/** What the server runs with: the environment, checked by config.env.ts, shaped for use (loadConfig). */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Read replica of databaseUrl (DATABASE_REPLICA_URL): lists, reports and exports read there. */
  replicaUrl?: string;
  /** Read-your-writes window of a session after a write, in ms (DATABASE_REPLICA_STICKY_MS). */
  replicaStickyMs: number;
  /** Lists', reports' and search's statements prepared with generic plans (DATABASE_GENERIC_PLANS, PostgreSQL). */
  genericPlans: boolean;
  /** Pipelined connections per process for the lists' short statements (DATABASE_PIPELINE_CONNECTIONS, PostgreSQL). */
  pipelineConnections: number;
  /** PGlite's shared_buffers (PGLITE_SHARED_BUFFERS, default 32MB). */
  pgliteSharedBuffers: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Origin of links handed out (PUBLIC_URL; development default http://localhost:PORT). */
  publicUrl: string;
  /** Passkeys (decision 047): the expected origin and the relying party ID (its host), from PASSKEY_ORIGIN or PUBLIC_URL. */
  passkey: { origin: string; rpId: string };
  platformTz: string;
  logLevel: string;
  seedDemo: boolean;
  seedDays: number;
  accessTokenSeconds: number;
  sessionCacheMs: number;
  workers: number;
  webDist: string;
  passwordMinLength?: number;
  passwordMaxAgeDays?: number;
  smsUrl?: string;
  wechat?: WechatConfig;
  /** Fastify's trustProxy: false, a hop count, or proxy addresses (TRUST_PROXY). */
  trustProxy: false | number | string[];
  chatWidgetUrl?: string;
  chatSecret?: string;
  /** Lists rendered on the server for signed-in visitors (SERVER_RENDERING=on|off, decision 050): on unless NODE_ENV=test. Not named SSR: Vite and Vitest set that variable. */
  ssr?: 'on' | 'off';
  /** Who may read /api/docs (API_DOCS). */
  apiDocs?: 'off' | 'auth' | 'public';
  /** Bearer token for /metrics from outside this machine (METRICS_TOKEN). */
  metricsToken?: string;
  /** SHUTDOWN_GRACE_MS: bound on draining requests and the running job at shutdown. */
  shutdownGraceMs: number;
  /** SHUTDOWN_DELAY_MS: /readyz is 503 this long before the listener closes. */
  shutdownDelayMs: number;
  /** READY_MAX_REPLICA_LAG_SECONDS: /readyz's bound on the replica's lag. */
  readyMaxReplicaLagSeconds: number;
  /** PROVIDER_KEY_ENCRYPTION_KEY (raw string; see modules/gateway/gateway.crypto.ts). */
  providerKeyEncryptionKey?: string;
  /** Folder of gateway transaction files picked up by the job runner (IMPORT_INBOX or DATA_DIR/inbox). */
  importInbox?: string;
  /** PROVIDER_FEED_DAYS_BACK / _AHEAD: the provider feed's window around the clock (issue 47). */
  feedWindow: { daysBack: number; daysAhead: number };
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhooks may go to loopback / private / link-local addresses (never in production). */
  webhookAllowPrivate?: boolean;
  /** The gateway adapter (ACQUIRER*); absent = sandbox. */
  acquirer?: AcquirerConfig;
  /** Issue 51: SSO_DNS_SERVERS — DNS servers for the verified domains' TXT proof; absent = the system's. */
  ssoDnsServers?: string[];
}

/** The HTTP gateway adapter's settings (ACQUIRER=http). */
export interface AcquirerConfig {
  kind: 'sandbox' | 'http';
  /** NODE_ENV=production running the sandbox (ACQUIRER_SANDBOX_IN_PRODUCTION=yes, staging): warned about at every start. */
  sandboxInProduction?: boolean;
  url?: string;
  signingKey?: string;
  keyId: string;
  timeoutMs: number;
  retries: number;
  /** First pause between immediate retries (ms, doubling); 200 unless a test sets it. */
  retryDelayMs?: number;
}

/** The WeChat OAuth2 provider (WECHAT_*): present only when all five are set. */
export interface WechatConfig {
  appId: string;
  appSecret: string;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new Error('Invalid environment:\n  WORKERS: more than one API process needs DATABASE_URL (the embedded PGlite belongs to one process)');
  }
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL) {
    throw new Error('Invalid environment:\n  DATABASE_REPLICA_URL: a read replica needs DATABASE_URL (the primary it replicates; PGlite has no replicas)');
  }
  if (e.ACQUIRER === 'http' && (!e.ACQUIRER_URL || !e.ACQUIRER_SIGNING_KEY))
    throw new Error('Invalid environment:\n  ACQUIRER: ACQUIRER=http needs ACQUIRER_URL and ACQUIRER_SIGNING_KEY (at least 32 characters)');
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL)
    throw new Error('Invalid environment:\n  PUBLIC_URL: required when NODE_ENV=production (the origin buyers and users reach the portal on, e.g. https://portal.example.com)');
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true')
    throw new Error('Invalid environment:\n  WEBHOOK_ALLOW_PRIVATE_NETWORKS: never in production (webhooks to private addresses are a server-side request forgery risk)');
  // Without SMTP the mailer writes every mail — sign-in codes, reset links — to files on disk (issue 28).
  if (e.NODE_ENV === 'production' && !e.SMTP_URL)
    throw new Error('Invalid environment:\n  SMTP_URL: required when NODE_ENV=production (without it sign-in codes and reset links would be written to disk instead of sent)');
  // Issue 46: in production a refund must reach a gateway. The sandbox answers "Approved" without one,
  // so it runs there only when named on purpose together with the staging setting (and is warned about).
  if (e.NODE_ENV === 'production' && !e.ACQUIRER)
    throw new Error(
      'Invalid environment:\n  ACQUIRER: required when NODE_ENV=production: ACQUIRER=http with ACQUIRER_URL and ACQUIRER_SIGNING_KEY (refunds and charges go to the gateway). The sandbox answers them without any gateway; a staging server may use it with ACQUIRER=sandbox and ACQUIRER_SANDBOX_IN_PRODUCTION=yes',
    );
  if (e.NODE_ENV === 'production' && e.ACQUIRER === 'sandbox' && e.ACQUIRER_SANDBOX_IN_PRODUCTION !== 'yes')
    throw new Error(
      'Invalid environment:\n  ACQUIRER: ACQUIRER=sandbox in production answers refunds and charges without any gateway; set ACQUIRER=http, or (a staging server only) ACQUIRER_SANDBOX_IN_PRODUCTION=yes',
    );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    replicaUrl: e.DATABASE_REPLICA_URL,
    replicaStickyMs: e.DATABASE_REPLICA_STICKY_MS,
    genericPlans: e.DATABASE_GENERIC_PLANS === 'on',
    pipelineConnections: e.DATABASE_PIPELINE_CONNECTIONS,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    // Pay links and e-mailed links come from configuration only, never from a request's Host.
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    passkey: passkeyOf(e.PASSKEY_ORIGIN ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    platformTz: e.PLATFORM_TZ,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === 'true' && e.NODE_ENV !== 'production',
    seedDays: e.SEED_DAYS,
    accessTokenSeconds: e.ACCESS_TOKEN_SECONDS,
    sessionCacheMs: e.SESSION_CACHE_MS,
    passwordMinLength: e.PASSWORD_MIN_LENGTH,
    passwordMaxAgeDays: e.PASSWORD_MAX_AGE_DAYS,
    smsUrl: e.SMS_URL || undefined,
    wechat:
      e.WECHAT_APP_ID && e.WECHAT_APP_SECRET && e.WECHAT_AUTH_URL && e.WECHAT_TOKEN_URL && e.WECHAT_USERINFO_URL
        ? { appId: e.WECHAT_APP_ID, appSecret: e.WECHAT_APP_SECRET, authUrl: e.WECHAT_AUTH_URL, tokenUrl: e.WECHAT_TOKEN_URL, userinfoUrl: e.WECHAT_USERINFO_URL }
        : undefined,
    workers: e.WORKERS,
    webDist: path.resolve(API_ROOT, '../web/dist'),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    chatWidgetUrl: e.CHAT_WIDGET_URL,
    chatSecret: e.CHAT_SECRET,
    ssr: e.SERVER_RENDERING ?? (e.NODE_ENV === 'test' ? 'off' : 'on'),
    apiDocs: e.API_DOCS ?? (e.NODE_ENV === 'production' ? 'auth' : 'public'),
    metricsToken: e.METRICS_TOKEN,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    readyMaxReplicaLagSeconds: e.READY_MAX_REPLICA_LAG_SECONDS,
    acquirer: {
      kind: e.ACQUIRER ?? 'sandbox',
      sandboxInProduction: e.NODE_ENV === 'production' && (e.ACQUIRER ?? 'sandbox') === 'sandbox',
      url: e.ACQUIRER_URL,
      signingKey: e.ACQUIRER_SIGNING_KEY,
      keyId: e.ACQUIRER_KEY_ID,
      timeoutMs: e.ACQUIRER_TIMEOUT_MS,
      retries: e.ACQUIRER_RETRIES,
    },
    providerKeyEncryptionKey: e.PROVIDER_KEY_ENCRYPTION_KEY,
    importInbox: path.resolve(e.IMPORT_INBOX ?? path.join(e.DATA_DIR, 'inbox')),
    feedWindow: { daysBack: e.PROVIDER_FEED_DAYS_BACK, daysAhead: e.PROVIDER_FEED_DAYS_AHEAD },
    webhookAllowPrivate: e.NODE_ENV !== 'production' && (e.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'true') === 'true',
    // Issue 51 (SSO).
    ssoDnsServers: e.SSO_DNS_SERVERS
      ? e.SSO_DNS_SERVERS.split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined,
  };
}

/** The passkey origin (no trailing slash) and its host as the relying party ID. */
function passkeyOf(origin: string): { origin: string; rpId: string } {
  const u = new URL(origin);
  return { origin: u.origin, rpId: u.hostname };
}
