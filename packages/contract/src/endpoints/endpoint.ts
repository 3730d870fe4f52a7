import type { OpsRole } from '../ops';
import type { Permission } from '../permissions';

/**
 * One endpoint of the portal's API (issue 45 §3, decision 074): its method, its path as the server
 * registers it, who may call it, how its input travels and what it answers. The input and answer
 * types are phantom — carried by the type only, never a value — so the web imports no zod with them.
 *
 * The server's route table is checked against these (apps/api/test/security/routes.test.ts): every
 * registered portal route has a descriptor with the same method, path and access, and every
 * descriptor a route. The web calls `http.call(descriptor, input)` and derives query keys from it.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The back office (/api/ops, decision 038): the operator roles that may call; the administrator always may. */
export interface OpsAccess {
  readonly opsRoles: readonly OpsRole[];
}
/** Who may call: a permission (any one of several), any signed-in user, operators of some roles, or anybody. */
export type Access = Permission | readonly Permission[] | 'signed-in' | OpsAccess | 'public';

/** How the input travels: the query string, a url-encoded form, a JSON body or a multipart upload. */
export type BodyKind = 'query' | 'form' | 'json' | 'multipart';

/** The answer of an endpoint that sends a file (not an envelope). */
export interface FileAnswer {
  readonly kind: 'file';
}

/** The answer of an endpoint that redirects the browser (a provider's callback): never called by `http.call`. */
export interface RedirectAnswer {
  readonly kind: 'redirect';
}

/** Input of a multipart endpoint: the form data, beside the path and query fields. */
export interface Multipart {
  multipart: FormData;
}

/**
 * `Refusal`: the data a refusal carries beside its non-zero code (sign-in's `{ remaining }` tries,
 * an expired password's `{ username }`), which `http.call` never answers — it throws a
 * RequestError whose `data` it is. Phantom like the rest; `never` for most endpoints.
 */
export interface Endpoint<In = void, Out = unknown, Refusal = never> {
  readonly method: Method;
  /** The path as the server registers it, `:name` for a path parameter: `/api/notice/detail/:id`. */
  readonly path: string;
  readonly access: Access;
  readonly body: BodyKind;
  /** Set when the answer is a file (Content-Disposition names it), not an envelope. */
  readonly file?: true;
  /** Phantom: the input and answer types. Never set at run time. */
  readonly types?: { readonly in: In; readonly out: Out; readonly refusal?: Refusal };
}

/** Any descriptor (the phantom types are read-only, so every endpoint is one of these). */
export type AnyEndpoint = Endpoint<unknown, unknown, unknown>;
export type EndpointIn<E> = E extends Endpoint<infer In, unknown, unknown> ? In : never;
export type EndpointOut<E> = E extends Endpoint<unknown, infer Out, unknown> ? Out : never;
export type EndpointRefusal<E> = E extends Endpoint<unknown, unknown, infer R> ? R : never;

/** A GET: the input is the query string (and the path's parameters). */
export const get = <In = void, Out = unknown, Refusal = never>(path: string, access: Access): Endpoint<In, Out, Refusal> => ({ method: 'GET', path, access, body: 'query' });

/** A GET whose answer is a file (an export, a statement, an attachment). */
export const download = <In = void>(path: string, access: Access): Endpoint<In, FileAnswer> => ({ method: 'GET', path, access, body: 'query', file: true });

/** A POST: the input is a url-encoded form unless said otherwise (and the path's parameters). */
export const post = <In = void, Out = unknown, Refusal = never>(path: string, access: Access, body: Exclude<BodyKind, 'query'> = 'form'): Endpoint<In, Out, Refusal> => ({
  method: 'POST',
  path,
  access,
  body,
});

/** The names of a path's parameters: `/api/disputes/:id/evidence/:evidenceId` → id, evidenceId. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/**
 * Splits an input into the filled path and the rest (query or body fields). A missing path
 * parameter throws: a URL with `undefined` in it would reach another route.
 */
export function fillEndpoint(e: AnyEndpoint, input: unknown): { path: string; rest: Record<string, unknown> } {
  const rest: Record<string, unknown> = { ...((input ?? {}) as Record<string, unknown>) };
  const path = e.path.replace(/:(\w+)/g, (_, name: string) => {
    const v = rest[name];
    if (v === undefined || v === null || v === '') throw new Error(`${e.method} ${e.path}: no value for :${name}`);
    delete rest[name];
    return encodeURIComponent(String(v));
  });
  return { path, rest };
}

/**
 * The query key of a GET (react-query): the path's segments under /api, then the input when there
 * is one — `['notice', 'detail', ':id', { id: 7 }]`. A key's prefix (`['notice']`) invalidates the area.
 */
export function endpointKey(e: AnyEndpoint, input?: unknown): readonly unknown[] {
  const parts = e.path.replace(/^\/api\//, '').split('/');
  return input === undefined ? parts : [...parts, input];
}
