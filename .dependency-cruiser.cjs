/**
 * The API's boundaries, enforced (issue 45 §2, decision 055):
 * - no circular imports between files, inside a module or in infrastructure (a cycle through a
 *   module's index.ts is a cycle between modules: scripts/deps-check.ts counts those as
 *   `module-cycle` findings, one per pair of modules that reach each other — decision 066);
 * - a module reaches another module only through that module's `index.ts` (its public door);
 * - infrastructure (`lib`, `plugins`, `db`, `jobs`) never imports a module.
 * Today's findings are listed in `.dependency-cruiser-known-violations.json`, which may only shrink:
 * `npm run lint:deps` (scripts/deps-check.ts) fails on a new violation and on a listed one that is gone.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports: split the shared part out, or pass it in (a hook, an argument).',
      from: { path: '^apps/api/src' },
      to: { circular: true, viaNot: '^apps/api/src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'module-past-index',
      severity: 'error',
      comment: 'Another module is reached only through its index.ts (its manifest and public functions).',
      from: { path: '^apps/api/src/modules/([^/]+)/' },
      to: { path: '^apps/api/src/modules/([^/]+)/', pathNot: ['^apps/api/src/modules/$1/', '^apps/api/src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'infrastructure-to-module',
      severity: 'error',
      comment: 'lib, plugins, db and jobs never import a module: a module registers a hook with them instead.',
      from: { path: '^apps/api/src/(lib|plugins|db|jobs)/' },
      to: { path: '^apps/api/src/modules/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test\\.ts$' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
