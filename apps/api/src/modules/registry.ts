import type { FastifyInstance } from 'fastify';
import type { Deps } from '../plugins/context';
import { addMetricSource } from '../plugins/metrics';
import { MODULES } from './index';
import { enabledModules, type ModuleManifest } from './contract';

/**
 * Registers the domain modules from their manifests (`modules/index.ts`): start-up hooks, metrics
 * and portal routes, in the list's order. The hosted faces (`face`) come later (`registerFaces`),
 * after the provider face. Returns the modules this server runs (those `enabled` for its config).
 */
export function registerModules(app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[] = MODULES): ModuleManifest[] {
  const on = initModules(deps, modules);
  for (const m of on) for (const source of m.metrics ?? []) addMetricSource(source);
  for (const m of on) m.routes?.(app, deps, on);
  return on;
}

/**
 * Runs the modules' `init` (their hooks into infrastructure and into each other) — what a process
 * needs before it runs module code: the server (`registerModules`), the demo seed's own process
 * (`firstStart`), the import command. Returns the modules this server runs.
 */
export function initModules(deps: Deps, modules: readonly ModuleManifest[] = MODULES): ModuleManifest[] {
  const on = enabledModules(modules, deps.config);
  for (const m of on) m.init?.(deps);
  return on;
}

/** Registers the faces the modules host (`/v1`), each with the others' routes of that face. */
export async function registerFaces(app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[]): Promise<void> {
  for (const m of modules) if (m.face) await m.face(app, deps, modules);
}
