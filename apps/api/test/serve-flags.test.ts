import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_BUNDLE, API_NODE_FLAGS } from '../build-api';

/**
 * `npm run serve` runs the API's bundle with the Node options the e2e suites and the memory bench use
 * (API_NODE_FLAGS, issue 52): what is measured and tested is what production runs.
 */
describe('the serving command', () => {
  it('runs the bundle with API_NODE_FLAGS', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const words = pkg.scripts.serve.split(/\s+/);
    expect(words[0]).toBe('node');
    expect(words.slice(1, -1)).toEqual(API_NODE_FLAGS);
    expect(path.resolve(path.resolve(import.meta.dirname, '../../..'), words.at(-1)!)).toBe(API_BUNDLE);
  });
});
