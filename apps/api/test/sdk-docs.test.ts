import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';

/**
 * The docs' TypeScript examples are SDK code that compiles (issue 50: "a curl and an SDK example for
 * each new call"): every ```ts block of docs/merchant-api.md, docs/webhooks.md and the SDK's README
 * is type-checked, each as a module of its own, against @portal/sdk — a call the document does not
 * allow, a field renamed or a helper gone fails here. Names an example takes as given (the address,
 * the key, a client made above, the receiver's request) are declared once.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const FILES = ['docs/merchant-api.md', 'docs/webhooks.md', 'packages/sdk/README.md'];
const GIVEN = `import type { PortalClient, paginate as P, paginatePages as PP, orThrow as O } from '@portal/sdk';
declare global {
  const BASE: string, KEY: string, SECRET: string;
  const api: PortalClient;
  const paginate: typeof P, paginatePages: typeof PP, orThrow: typeof O;
  const seen: Set<string>;
  function handle(e: unknown): void;
  const req: { body: Buffer; headers: Record<string, string | string[] | undefined> };
  const res: { sendStatus(status: number): void };
}
export {};
`;

describe('the docs’ SDK examples', () => {
  it('every ```ts block type-checks against @portal/sdk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-docs-'));
    try {
      const files = [path.join(dir, 'given.d.ts')];
      fs.writeFileSync(files[0], GIVEN);
      const where = new Map<string, string>();
      for (const doc of FILES) {
        const blocks = [...fs.readFileSync(path.join(root, doc), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
        expect(blocks.length, doc).toBeGreaterThan(0);
        blocks.forEach((b, i) => {
          const f = path.join(dir, `${path.basename(doc, '.md')}-${i}.ts`);
          fs.writeFileSync(f, `${b}\nexport {};\n`);
          files.push(f);
          where.set(f, `${doc} block ${i + 1}`);
        });
      }
      const program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        noUnusedLocals: false,
        // The SDK as a merchant's project imports it (its package's entry).
        paths: { '@portal/sdk': [path.join(root, 'packages/sdk/src/index.ts')] },
        typeRoots: [path.join(root, 'node_modules/@types')],
      });
      const diags = ts.getPreEmitDiagnostics(program).map((d) => `${where.get(d.file?.fileName ?? '') ?? d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(diags).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
