import type { Queryable } from '../src/db/db';
import { sqlLiteral } from '../src/db/sql-inline';

/** What a plan reads: relations and indexes (after run-time pruning), and the subplans it removed. */
export interface PlanFacts {
  relations: string[];
  indexes: string[];
  removed: number;
}

/** The facts of a JSON plan (EXPLAIN (FORMAT JSON)), walked whole. */
export function planFacts(plan: unknown): PlanFacts {
  const relations = new Set<string>();
  const indexes = new Set<string>();
  let removed = 0;
  const visit = (n: Record<string, unknown>) => {
    if (typeof n['Relation Name'] === 'string') relations.add(n['Relation Name']);
    if (typeof n['Index Name'] === 'string') indexes.add(n['Index Name']);
    if (typeof n['Subplans Removed'] === 'number') removed += n['Subplans Removed'];
    for (const c of (n.Plans as Record<string, unknown>[] | undefined) ?? []) visit(c);
  };
  visit(plan as Record<string, unknown>);
  return { relations: [...relations].sort(), indexes: [...indexes].sort(), removed };
}

/**
 * EXPLAIN EXECUTE of `text` with `params` under a plan_cache_mode, inside the caller's transaction
 * (SET LOCAL). `setup` runs first (e.g. `SET LOCAL enable_seqscan = off`).
 */
export async function planOf(q: Queryable, text: string, params: unknown[], mode: 'force_custom_plan' | 'force_generic_plan', setup: string[] = []): Promise<PlanFacts> {
  await q.query(`SET LOCAL plan_cache_mode = ${mode}`);
  for (const s of setup) await q.query(s);
  await q.query(`PREPARE probe AS ${text}`);
  try {
    const args = params.length ? `(${params.map((p) => sqlLiteral(p)).join(', ')})` : '';
    const { rows } = await q.query<{ 'QUERY PLAN': [{ Plan: unknown }] }>(`EXPLAIN (FORMAT JSON) EXECUTE probe${args}`);
    return planFacts(rows[0]['QUERY PLAN'][0].Plan);
  } finally {
    await q.query('DEALLOCATE probe');
  }
}
