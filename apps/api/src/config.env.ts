import { z } from 'zod';
import { DEFAULT_PIPELINE_CONNECTIONS } from './db/pipelined';

/** An empty variable counts as unset (`FOO=` in an env file), so the schema's default or optional applies. */
const unsetIfBlank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** A bare origin: scheme and host (and port), nothing after. */
const originUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\/[^/?#]+\/?$/.test(u), 'an origin such as https://portal.example.com (no path, query or fragment)');

/** Environment, checked once at boot (a wrong value stops the server with a clear message). */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Interface to listen on: loopback unless opened up on purpose (README: 'Opening the portal to a network'). */
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    /**
     * A streaming (hot standby) replica of DATABASE_URL: lists, reports and exports read from it;
     * writes and the reads that must see them stay on the primary (decision 024). Needs DATABASE_URL.
     */
    DATABASE_REPLICA_URL: unsetIfBlank(
      z
        .string()
        .url()
        .refine((u) => /^postgres(?:ql)?:/.test(u), 'a postgres:// URL')
        .optional(),
    ),
    /** How long a session's reads stay on the primary after it wrote (ms; 0 = only the writing request). */
    DATABASE_REPLICA_STICKY_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    DATABASE_GENERIC_PLANS: z.enum(['on', 'off']).default('on'),
    /** Pipelined connections per process for the lists' short statements (decision 053; 0 = none). */
    DATABASE_PIPELINE_CONNECTIONS: z.coerce.number().int().min(0).max(64).default(DEFAULT_PIPELINE_CONNECTIONS),
    /**
     * PGlite's shared buffers (issue 52): 32MB — a quarter of PostgreSQL's default, which the
     * embedded server zeroes at start and so holds resident from the first second (~96 MB of RSS
     * saved; 90 demo days at rest: 420 MB with 64MB, 381 MB with 32MB).
     */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^\d{1,5}(kB|MB|GB)$/, 'a size such as 64MB')
      .default('32MB'),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Merchant Portal <no-reply@portal.local>'),
    /** Public base URL of the portal, used in pay links and e-mails; required in production. */
    PUBLIC_URL: originUrl.optional(),
    /**
     * The origin passkeys (WebAuthn, decision 047) are bound to, when it is not PUBLIC_URL's: its host
     * is the relying party ID. An IP address is no valid RP ID, so a server reached on 127.0.0.1 names
     * http://localhost:PORT here. Never taken from a request's Host.
     */
    PASSKEY_ORIGIN: originUrl.optional(),
    /**
     * Reverse proxies whose X-Forwarded-For is believed (client address for rate limits and the
     * audit log): 'false' (default, believe no one), a hop count (1), or a comma-separated list of
     * proxy addresses / CIDR ranges ('127.0.0.1,10.0.0.0/8'). 'true' (trust everyone) is refused.
     */
    TRUST_PROXY: z.string().default('false'),
    /** The platform time zone: the wire speaks it (spec §9). */
    PLATFORM_TZ: z.string().default('Asia/Shanghai'),
    LOG_LEVEL: z.string().default('info'),
    /** Seed the demo data on first start (never in production). */
    SEED_DEMO: z.enum(['true', 'false']).default('true'),
    /** Days of demo transactions to generate on first start. */
    SEED_DAYS: z.coerce.number().int().min(0).max(400).default(90),
    /** Access-token lifetime; 15 minutes unless shortened for end-to-end tests. */
    ACCESS_TOKEN_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(15 * 60),
    /**
     * How long a looked-up session may be reused by this process (ms; 0 = look up on every call).
     * Writes through this process drop it at once; this is the bound for changes made by another
     * server process (see docs/decisions/008-session-cache.md).
     */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    /** Shortest password allowed (letters and digits); 8 per the spec, 12 for the PCI profile. */
    PASSWORD_MIN_LENGTH: z.coerce.number().int().min(7).max(64).default(8),
    /** Days a password lives before sign-in asks for a new one (0 = never). */
    PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
    /** SMS provider: POST {to, text} as JSON to this URL; unset = development outbox (/dev/mailbox). */
    SMS_URL: z.string().url().optional().or(z.literal('')),
    /** WeChat OAuth2 (website application); all five set or WeChat is hidden. */
    WECHAT_APP_ID: z.string().optional(),
    WECHAT_APP_SECRET: z.string().optional(),
    WECHAT_AUTH_URL: z.string().url().optional().or(z.literal('')),
    WECHAT_TOKEN_URL: z.string().url().optional().or(z.literal('')),
    WECHAT_USERINFO_URL: z.string().url().optional().or(z.literal('')),
    /** Live-chat widget page (spec §1); the bubble is hidden when unset. */
    CHAT_WIDGET_URL: unsetIfBlank(
      z
        .string()
        .url()
        .refine((u) => /^https?:/.test(u), 'http(s) URL')
        .optional(),
    ),
    /** HMAC key of the chat-only token handed to the widget (at least 32 characters; required with CHAT_WIDGET_URL). */
    CHAT_SECRET: unsetIfBlank(z.string().min(32).optional()),
    /**
     * API processes on this machine (node:cluster, one port): 1 = this process serves. More need
     * DATABASE_URL (PGlite belongs to one process); every process runs the job runner (claims are
     * SKIP LOCKED: each job runs once) and shares the rate limits (kept in PostgreSQL).
     */
    WORKERS: z.coerce.number().int().min(1).max(64).default(1),
    /** Lists rendered on the server for signed-in visitors (decision 050): on unless NODE_ENV=test. */
    SERVER_RENDERING: unsetIfBlank(z.enum(['on', 'off']).optional()),
    /**
     * The OpenAPI description and its UI (/api/docs): 'off' (not served), 'auth' (signed-in users only)
     * or 'public'. Default: 'auth' in production, 'public' elsewhere (issue 28, decision 036).
     */
    API_DOCS: unsetIfBlank(z.enum(['off', 'auth', 'public']).optional()),
    /** Bearer token that lets a non-loopback caller read /metrics (unset: loopback callers only). At least 16 characters. */
    METRICS_TOKEN: unsetIfBlank(z.string().min(16).optional()),
    /** On SIGTERM/SIGINT: how long requests in flight and a running job's step may take before the process exits anyway (ms). */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
    /** On SIGTERM/SIGINT: how long /readyz answers 503 before the listener closes, for load balancers to notice (ms). */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    /** /readyz: the read replica's lag above which this process is not ready (seconds). */
    READY_MAX_REPLICA_LAG_SECONDS: z.coerce.number().min(0).max(86_400).default(30),
    /**
     * Who refunds, voids and charges (decision 033, docs/acquirer-adapter.md): the built-in sandbox, or a
     * gateway over signed HTTP. Default sandbox outside production; required in production (issue 46).
     */
    ACQUIRER: unsetIfBlank(z.enum(['sandbox', 'http']).optional()),
    /**
     * Staging only: `yes` lets a NODE_ENV=production server run with ACQUIRER=sandbox (refunds and
     * charges answered without any gateway), warned about in the banner and the log at every start.
     */
    ACQUIRER_SANDBOX_IN_PRODUCTION: unsetIfBlank(z.enum(['yes', 'no']).optional()),
    /** The gateway's base URL (ACQUIRER=http), e.g. https://gateway.example.com/portal/v1. */
    ACQUIRER_URL: unsetIfBlank(
      z
        .string()
        .url()
        .refine((u) => /^https?:/.test(u), 'http(s) URL')
        .optional(),
    ),
    /** HMAC-SHA256 key the portal signs its gateway requests with (ACQUIRER=http; at least 32 characters). */
    ACQUIRER_SIGNING_KEY: unsetIfBlank(z.string().min(32).optional()),
    /** The key's id, sent in X-Portal-Key-Id so the gateway can rotate keys. */
    ACQUIRER_KEY_ID: z.string().min(1).max(64).default('portal'),
    /** How long one gateway request may take before it counts as unanswered (ms). */
    ACQUIRER_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
    /** Immediate retries of an unanswered request (same idempotency key) before the job takes over. */
    ACQUIRER_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    /**
     * Key encrypting the gateway connections' signing secrets at rest (AES-256-GCM): 32 bytes as 64
     * hex characters or base64. Required in production once a gateway connection exists (the server
     * refuses to start without it); elsewhere a fixed development key is used (docs/integration.md).
     */
    PROVIDER_KEY_ENCRYPTION_KEY: unsetIfBlank(
      z
        .string()
        .refine((k) => /^[0-9a-fA-F]{64}$/.test(k) || Buffer.from(k, 'base64').length === 32, '32 bytes: 64 hex characters or base64')
        .optional(),
    ),
    /** Folder watched for gateway transaction files (default DATA_DIR/inbox). */
    IMPORT_INBOX: unsetIfBlank(z.string().optional()),
    /**
     * Issue 47: the provider feed's window — a row's currentTime at most this many days before and
     * after the portal's clock (API and files); the partition job keeps the ledger's months of the
     * window created, so the feed never creates one (docs/integration.md).
     */
    PROVIDER_FEED_DAYS_BACK: z.coerce.number().int().min(1).max(3660).default(400),
    PROVIDER_FEED_DAYS_AHEAD: z.coerce.number().int().min(0).max(31).default(2),
    /**
     * Webhook deliveries to loopback, private and link-local addresses (checked after DNS resolution
     * at every attempt; decision 040): allowed by default in development and tests, never in production.
     */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).optional(),
    // Issue 51 (SSO): the DNS servers asked for verified domains' TXT records (host or host:port, comma-joined); unset = the system's.
    SSO_DNS_SERVERS: unsetIfBlank(
      z
        .string()
        .regex(/^[0-9A-Za-z.:[\],]+$/, 'addresses such as 1.1.1.1,8.8.8.8:53')
        .optional(),
    ),
  })
  .refine((e) => !e.CHAT_WIDGET_URL || !!e.CHAT_SECRET, { message: 'CHAT_SECRET is required when CHAT_WIDGET_URL is set', path: ['CHAT_SECRET'] });

const PROXY_ENTRY = /^(?:loopback|linklocal|uniquelocal|[0-9.]+(?:\/\d{1,2})?|[0-9a-fA-F:.]+(?:\/\d{1,3})?)$/;

/** TRUST_PROXY → Fastify's trustProxy (never `true`: that believes any client's header). */
export function parseTrustProxy(v: string): false | number | string[] {
  const s = v.trim();
  if (s === '' || s === 'false' || s === '0') return false;
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n > 10) throw new Error('TRUST_PROXY: a hop count of 1 to 10');
    return n;
  }
  if (s === 'true') throw new Error("TRUST_PROXY: 'true' would believe X-Forwarded-For from anyone; give the proxies' addresses or a hop count");
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = list.filter((x) => !PROXY_ENTRY.test(x));
  if (bad.length) throw new Error(`TRUST_PROXY: not an address or range: ${bad.join(', ')}`);
  return list;
}
