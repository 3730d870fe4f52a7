import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, WEB_SRC } from './source-files.test-helper';

/**
 * Query keys come from the descriptors (issue 45 §3, decision 074): `apiQuery`/`opsQuery` give a
 * query its key (the path under /api, then the input), and invalidations name `apiKey`, `areaKey`,
 * `endpointKey`, a query's own `.queryKey` or an `ofEndpoints` predicate. A key written by hand — a
 * literal array, or a function of the screen's own (`queryKey: key(screen)`) — drifts from the
 * endpoint it caches and from the prefixes other screens invalidate by.
 */
const SRC = WEB_SRC;
const files = sourceFiles;

/**
 * `queryKey:` as a property (not `q.queryKey`), then a literal array, or a call of anything but the
 * descriptor helpers and a query builder's own key (`viewsQuery(screen).queryKey`).
 */
const HAND_KEY = /(?<![.\w])queryKey\s*:\s*(\[|(?!(?:apiKey|areaKey|endpointKey)\(|[\w$]+\([^()]*\)\.queryKey\b)[\w$]+\s*\()/g;

function handKeys(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(HAND_KEY)) {
    const line = text.slice(0, m.index).split('\n').length;
    found.push(`${file}:${line}: ${text.split('\n')[line - 1].trim()}`);
  }
  return found;
}

describe('no hand-written query keys in apps/web/src', () => {
  it('the pattern: a literal array or a hand key function is found, with its line; the descriptor helpers are not', () => {
    const text = [
      "useQuery({ queryKey: ['ops', 'sessions'], queryFn })",
      'qc.invalidateQueries({\n  queryKey: [\n  "x"] })',
      'useQuery({ queryKey: key(screen), queryFn })',
      'qc.invalidateQueries({ queryKey: apiKey(OpsApi.sessions) })',
      'qc.invalidateQueries({ queryKey: areaKey(TxnApi.list) })',
      'queryOptions({ queryKey: endpointKey(e, input), queryFn })',
      'qc.invalidateQueries({ queryKey: viewsQuery(screen).queryKey })',
      'const n = q.queryKey.length;',
    ].join('\n');
    expect(handKeys('x.ts', text)).toEqual(["x.ts:1: useQuery({ queryKey: ['ops', 'sessions'], queryFn })", 'x.ts:3: queryKey: [', 'x.ts:5: useQuery({ queryKey: key(screen), queryFn })']);
  });

  it('every query key and invalidation of the web comes from a descriptor', () => {
    const found = files(SRC).flatMap((f) => handKeys(path.relative(SRC, f), fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
