import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSync } from '@swc/core';
import { afterAll, describe, expect, it } from 'vitest';
import { descriptors, generateModule, skeleton } from '../../../scripts/new-module';

// `npm run new:module` kept working (issue 45 §1): it writes the skeleton and the two central lines
// into a copy of the module list; every generated file is valid TypeScript.
const src = path.resolve(import.meta.dirname, '../src');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'new-module-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('npm run new:module', () => {
  it('writes the folder (door, route, service, messages, route test) and one line each in MODULES and the catalogue', () => {
    fs.mkdirSync(path.join(tmp, 'modules'));
    for (const f of ['index.ts', 'messages.ts']) fs.copyFileSync(path.join(src, 'modules', f), path.join(tmp, 'modules', f));
    // The contract's endpoint table (decision 074): the module's descriptors and their two lines.
    const contract = path.join(tmp, 'contract');
    fs.mkdirSync(path.join(contract, 'endpoints'), { recursive: true });
    const contractSrc = path.resolve(import.meta.dirname, '../../../packages/contract/src/endpoints');
    for (const f of ['index.ts', 'all.ts']) fs.copyFileSync(path.join(contractSrc, f), path.join(contract, 'endpoints', f));
    const g = generateModule('sample-thing', tmp, contract);
    expect(g.created.map((f) => path.basename(f)).sort()).toEqual([
      'index.ts',
      'sample-thing.messages.ts',
      'sample-thing.routes.ts',
      'sample-thing.service.ts',
      'sample-thing.test.ts',
      'sample-thing.ts',
    ]);
    expect(g.changed).toEqual(['modules/index.ts', 'modules/messages.ts', 'contract:endpoints/index.ts', 'contract:endpoints/all.ts']);
    expect(fs.readFileSync(path.join(contract, 'endpoints', 'index.ts'), 'utf8')).toMatch(/export \* from '\.\/sample-thing';\n$/);
    const all = fs.readFileSync(path.join(contract, 'endpoints', 'all.ts'), 'utf8');
    expect(all).toContain("import { SampleThingApi } from './sample-thing';");
    expect(all).toContain('  SampleThingApi,\n};');
    expect(fs.readFileSync(path.join(tmp, 'modules', 'sample-thing', 'sample-thing.routes.ts'), 'utf8')).toContain('...routeOf(SampleThingApi.status)');
    const index = fs.readFileSync(path.join(tmp, 'modules', 'index.ts'), 'utf8');
    expect(index).toContain("import { manifest as sampleThing } from './sample-thing';");
    expect(index).toMatch(/\n {2}sampleThing,\n\];\n$/);
    const msgs = fs.readFileSync(path.join(tmp, 'modules', 'messages.ts'), 'utf8');
    expect(msgs).toContain("import { SAMPLE_THING_MESSAGES } from './sample-thing/sample-thing.messages';");
    expect(msgs).toContain('  ...SAMPLE_THING_MESSAGES,\n};');
    expect(() => generateModule('sample-thing', tmp)).toThrow(/exists/);
    expect(() => generateModule('Bad Name', tmp)).toThrow(/lower-case/);
  });

  it('generates files that parse as TypeScript', () => {
    for (const [file, text] of Object.entries({ ...skeleton('sample-thing'), 'endpoints/sample-thing.ts': descriptors('sample-thing') })) {
      expect(() => parseSync(text, { syntax: 'typescript', target: 'es2022' }), file).not.toThrow();
    }
  });
});
