/** Test data for API keys: keys are made through the portal's own route, as a person would. */
import type { InjectOptions } from 'fastify';
import type { TestCtx } from '../../../test/helpers';
import { DEMO, form } from '../../../test/helpers';

export interface TestApiKey {
  id: number;
  prefix: string;
  secret: string;
}

export async function createApiKey(
  ctx: TestCtx,
  token: string,
  o: { name?: string; merIds?: string[]; permissions: string[]; ipAllow?: string[]; expiresOn?: string; lang?: string },
): Promise<TestApiKey> {
  const body: Record<string, string> = { name: o.name ?? 'test key', merIds: (o.merIds ?? [DEMO.group, DEMO.subA, DEMO.subB]).join(','), permissions: o.permissions.join(',') };
  if (o.ipAllow) body.ipAllow = o.ipAllow.join(',');
  if (o.expiresOn) body.expiresOn = o.expiresOn;
  const f = form(body);
  const r = await ctx.call({ method: 'POST', url: '/api/developer/keys/create', headers: { ...f.headers, 'x-token': token, 'accept-language': o.lang ?? 'en' }, payload: f.payload });
  if (r.body.code !== 0) throw new Error(`create key: ${r.status} ${r.body.msg}`);
  return { id: r.body.data.key.id, prefix: r.body.data.key.prefix, secret: r.body.data.secret };
}

/**
 * A /v1 call with the key (JSON in and out). A POST without `headers` gets a fresh Idempotency-Key
 * (every POST needs one, issue 50); pass `headers` (even `{}`) to choose.
 */
export async function v1(ctx: TestCtx, key: string | null, opts: Omit<InjectOptions, 'headers'> & { headers?: Record<string, string> }) {
  const auto = opts.method === 'POST' && !opts.headers ? { 'idempotency-key': `t-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}` } : {};
  const res = await ctx.app.inject({ ...opts, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...auto, ...opts.headers } } as InjectOptions);
  let body: any = null;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers };
}
