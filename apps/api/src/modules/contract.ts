import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { named } from '../lib/v1-registry';
import type { Deps } from '../plugins/context';
import type { JobSetup } from '../jobs/start';
import type { JobLog } from '../jobs/runner';
import type { MetricSource } from '../plugins/metrics';
import type { Config } from '../config';

/** Registers routes on a Fastify scope: the portal's app, or a face's scope (its checks, its document). */
export type RouteSetup = (app: FastifyInstance, deps: Deps) => void;

/** A portal route setup; a module hosting a face (the back office) gets the list, to call the others' routes inside its scope. */
export type PortalRouteSetup = (app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[]) => void;

/** A background loop of its own (not a job kind): started with the server, stopped at shutdown (true: work was handed back). */
export type Worker = (deps: Deps, log: JobLog) => (graceMs?: number) => Promise<boolean>;

/**
 * What a module is (issue 45 §1): everything the server wires of it, declared in one place — its
 * `index.ts` exports one manifest, listed in `modules/index.ts`. No central file names a module's
 * routes, jobs or metrics: `app.ts`, the faces and `startup.ts` walk the list.
 *
 * Faces: `routes` are the portal's own (`/api/…`, the merchant session); `v1` runs inside the
 * merchant API face (`/v1`, API keys, its rate limit and document — each route's `config.v1` names the
 * key permission and tag); `provider` inside the provider face (`/provider/v1`, a gateway
 * connection's signed request: `req.gateway`); `ops` inside the back office (`/api/ops`, the
 * operator's session, `config.opsRoles`).
 */
export interface ModuleManifest {
  /** The module's folder under `modules/` (a test checks every folder is listed). */
  readonly name: string;
  /**
   * Whether the module is part of this server (default: always). The development pages, for one,
   * are absent in production: `enabled: (config) => config.env !== 'production'`.
   */
  readonly enabled?: (config: Config) => boolean;
  /** Portal routes (`/api/…`). */
  readonly routes?: PortalRouteSetup;
  /** Merchant API routes (`/v1/…`). */
  readonly v1?: RouteSetup;
  /** Provider API routes (`/provider/v1/…`). */
  readonly provider?: RouteSetup;
  /** Back-office routes (`/api/ops/…`). */
  readonly ops?: RouteSetup;
  /** Durable job kinds the job runner takes (each setup returns its kinds' handlers). */
  readonly jobs?: readonly JobSetup[];
  /** Gauges and counters added to `/metrics` at each scrape. */
  readonly metrics?: readonly MetricSource[];
  /** `/v1` document tags this module's routes use (name and description), in order. */
  readonly v1Tags?: readonly { name: string; description: string }[];
  /**
   * Webhook event types the module emits (through the outbox), each with its payload's schema in
   * both event forms (`webhookEvent`): published in `/v1/docs` (OpenAPI `webhooks`); a test fails on
   * an event type emitted that no manifest declares, or declared twice (decision 079).
   */
  readonly webhookEvents?: readonly WebhookEventDef[];
  /**
   * A face this module hosts (the merchant API, `/v1`): its encapsulated scope with its own checks,
   * error model and document, registered after every module's portal routes; it calls the modules'
   * routes of that face (`faceRoutes`) inside.
   */
  readonly face?: (app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[]) => Promise<void>;
  /**
   * Hooks into infrastructure and into the modules it serves (an approval kind, a sign-in check, the
   * order a charge pays): run when the app is built, before routes, and by every other process that
   * runs module code (the demo seed's, the import command) — `initModules`. Each run registers the
   * same handlers again (kept once by name or kind).
   */
  readonly init?: (deps: Deps) => void;
  /** Background loops of the module's own, started by `startup.ts` with the job runner. */
  readonly workers?: readonly Worker[];
  /** Start-up checks (`startup.ts` firstStart): a problem is said once as a warning; null when none. */
  readonly checks?: readonly ((deps: Deps) => Promise<string | null>)[];
  /** The development seed's part of this module, run on a first start after the foundation and the payment demo data. */
  readonly seed?: (deps: Deps) => Promise<void>;
  /** After every module's seed: what is made from the seeded data (the months' statements), still in the preparation process. */
  readonly afterSeed?: (deps: Deps) => Promise<void>;
}

/** Types a manifest (the identity: the compiler checks the shape). */
export function defineModule(m: ModuleManifest): ModuleManifest {
  return m;
}

/** The modules this server runs (the list without those whose `enabled` says no). */
export function enabledModules(modules: readonly ModuleManifest[], config: Config): ModuleManifest[] {
  return modules.filter((m) => m.enabled?.(config) ?? true);
}

/** The route setups of one face (`v1`, `provider`, `ops`), in the list's order; a face calls them inside its scope. */
export function faceRoutes(face: 'v1' | 'provider' | 'ops', modules: readonly ModuleManifest[]): RouteSetup[] {
  return modules.flatMap((m) => (m[face] ? [m[face]] : []));
}

/** The `/v1` document's tags the modules add. */
export function v1TagsOf(modules: readonly ModuleManifest[]): { name: string; description: string }[] {
  return modules.flatMap((m) => [...(m.v1Tags ?? [])]);
}

/** The durable job setups the modules declare (the job runner takes them with the infrastructure's own). */
export function moduleJobs(modules: readonly ModuleManifest[]): JobSetup[] {
  return modules.flatMap((m) => [...(m.jobs ?? [])]);
}

/** The Portal-Versions an event's payload has a form of (decision 075): every version before 2026-12-03 is sent the first. */
export const EVENT_FORMS = ['2026-12-01', '2026-12-03'] as const;
export type EventForm = (typeof EVENT_FORMS)[number];

/**
 * A webhook event type and the schema of the event as it is sent (issue 45 §3, decision 079): the
 * envelope and its `data`, in each event form. From 2026-12-03 `data` is the /v1 object where one
 * exists (a transaction.* event's is GET /v1/transactions/{id}'s Transaction).
 */
export interface WebhookEventDef {
  readonly type: string;
  readonly description: string;
  readonly payload: { readonly [F in EventForm]: z.ZodType };
}

/** "transaction.succeeded" → "TransactionSucceeded" (the event's name in the /v1 document). */
const eventName = (type: string) => type.replace(/(^|[._])([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * Declares an event type with its `data` in each form; the envelopes are the renderer's
 * (`webhook.render.ts` eventObject): 2026-12-01 `created` (Unix seconds), 2026-12-03 `created_at`
 * (ISO-8601 UTC). Both named in the /v1 document (`<Type>Event`, `<Type>EventV20261201`).
 */
export function webhookEvent(type: string, description: string, data: { readonly [F in EventForm]: z.ZodType }): WebhookEventDef {
  const base = {
    id: z.string().describe('evt_…: the same on every delivery, retry and resend (webhook-id / Portal-Event-Id)'),
    type: z.literal(type),
    merId: z.string().describe('the merchant it is about'),
  };
  const name = eventName(type);
  return {
    type,
    description,
    payload: {
      '2026-12-01': named(
        z.strictObject({ ...base, created: z.number().int().describe('when it happened, Unix seconds (UTC)'), data: data['2026-12-01'] }),
        `${name}EventV20261201`,
        `${type} as endpoints before Portal-Version 2026-12-03 receive it`,
      ),
      '2026-12-03': named(z.strictObject({ ...base, created_at: z.string().describe('when it happened, ISO-8601 UTC'), data: data['2026-12-03'] }), `${name}Event`, `${type}: ${description}`),
    },
  };
}

/** The event types the modules declare, in the list's order. */
export function webhookEventsOf(modules: readonly ModuleManifest[]): WebhookEventDef[] {
  return modules.flatMap((m) => [...(m.webhookEvents ?? [])]);
}
