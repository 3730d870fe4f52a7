import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSync } from '@swc/core';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule, skeleton } from '../../../scripts/new-module';

// `npm run new:module` kept working (issue 45 §1): it writes the skeleton and the two central lines
// into a copy of the module list; every generated file is valid TypeScript.
const src = path.resolve(import.meta.dirname, '../src');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'new-module-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('npm run new:module', () => {
  it('writes the folder (door, route, service, messages, route test) and one line each in MODULES and the catalogue', () => {
    fs.mkdirSync(path.join(tmp, 'modules'));
    for (const f of ['index.ts', 'messages.ts']) fs.copyFileSync(path.join(src, 'modules', f), path.join(tmp, 'modules', f));
    const g = generateModule('sample-thing', tmp);
    expect(g.created.map((f) => path.basename(f)).sort()).toEqual(['index.ts', 'sample-thing.messages.ts', 'sample-thing.routes.ts', 'sample-thing.service.ts', 'sample-thing.test.ts']);
    expect(g.changed).toEqual(['modules/index.ts', 'modules/messages.ts']);
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
    for (const [file, text] of Object.entries(skeleton('sample-thing'))) {
      expect(() => parseSync(text, { syntax: 'typescript', target: 'es2022' }), file).not.toThrow();
    }
  });
});
