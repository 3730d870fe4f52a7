import type { RouteOptions } from 'fastify';
import type { TestCtx } from '../helpers';

/** One registered API route: method and URL pattern, its config and schemas. */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  config?: { auth?: 'public' | 'user'; permission?: string | string[] };
  schema?: { params?: unknown; querystring?: unknown; body?: unknown };
}

/** The /api routes of the table (HEAD, OPTIONS and the OpenAPI pages left out). */
export function apiRoutes(all: RouteOptions[]): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const r of all) {
    if (!r.url.startsWith('/api/') || r.url.startsWith('/api/docs') || r.url.startsWith('/api/provider/docs')) continue;
    // The back office's routes have their own realm and suite (opsRoutes, ops-routes.test.ts).
    if (r.url.startsWith('/api/ops/')) continue;
    for (const m of ([] as string[]).concat(r.method)) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      out.push({ method: m as ApiRoute['method'], url: r.url, config: r.config as ApiRoute['config'], schema: r.schema as ApiRoute['schema'] });
    }
  }
  return out;
}

/** The provider face's routes (/provider/v1: signed gateway requests, issue 25). */
export function providerRoutes(all: RouteOptions[]): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const r of all) {
    if (!r.url.startsWith('/provider/')) continue;
    for (const m of ([] as string[]).concat(r.method)) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      out.push({ method: m as ApiRoute['method'], url: r.url, config: r.config as ApiRoute['config'], schema: r.schema as ApiRoute['schema'] });
    }
  }
  return out;
}

export const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** The URL with each :param replaced. */
export const fillPath = (url: string, value: (param: string) => string) => url.replace(/:(\w+)/g, (_, p: string) => value(p));

/** A user of `merId` with the demo password and the given permissions. */
export async function createUser(ctx: TestCtx, u: { username: string; email: string; merId: string; permissions: string[]; userType?: 'MAIN' | 'SUB' }) {
  await ctx.db.query(
    `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions)
     SELECT $1, password_hash, $2, $3, $4, false, $5 FROM app_user WHERE username = 'demo-sub'`,
    [u.username, u.email, u.merId, u.userType ?? 'SUB', u.permissions],
  );
}

/** The merchant API's routes (/v1, API keys, issue 31), its document's pages left out. */
export function v1Routes(all: RouteOptions[]): (ApiRoute & { v1?: { permission: string } })[] {
  const out: (ApiRoute & { v1?: { permission: string } })[] = [];
  for (const r of all) {
    if (!r.url.startsWith('/v1/') || r.url.startsWith('/v1/docs')) continue;
    for (const m of ([] as string[]).concat(r.method)) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      const config = r.config as ApiRoute['config'] & { v1?: { permission: string } };
      out.push({ method: m as ApiRoute['method'], url: r.url, config, schema: r.schema as ApiRoute['schema'], v1: config?.v1 });
    }
  }
  return out;
}

/** The back office's routes (/api/ops/, issue 26; its OpenAPI pages left out): their own realm and roles. */
export function opsRoutes(all: RouteOptions[]): (ApiRoute & { config?: { opsRoles?: readonly string[] | 'public' } })[] {
  const out: (ApiRoute & { config?: { opsRoles?: readonly string[] | 'public' } })[] = [];
  for (const r of all) {
    if (!r.url.startsWith('/api/ops/') || r.url.startsWith('/api/ops/docs')) continue;
    for (const m of ([] as string[]).concat(r.method)) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      out.push({ method: m as ApiRoute['method'], url: r.url, config: r.config as ApiRoute['config'], schema: r.schema as ApiRoute['schema'] });
    }
  }
  return out;
}

/** Issue 51: the SCIM face's routes (/scim/v2, SCIM bearer tokens, its own error format). */
export function scimRoutes(all: RouteOptions[]): ApiRoute[] {
  const out: ApiRoute[] = [];
  for (const r of all) {
    if (!r.url.startsWith('/scim/v2/') || r.url.startsWith('/scim/v2/docs')) continue;
    for (const m of ([] as string[]).concat(r.method)) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      out.push({ method: m as ApiRoute['method'], url: r.url, config: r.config as ApiRoute['config'], schema: r.schema as ApiRoute['schema'] });
    }
  }
  return out;
}
