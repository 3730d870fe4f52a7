/**
 * `npm run test:mutation [-- module …]`: StrykerJS (Vitest runner) over the money and security
 * rules, one module at a time, each against only its own test files, on PostgreSQL only
 * (TEST_DATABASE_URL must be set: the row locks and guarded UPDATEs are only real there). Prints
 * the mutation score per module and every surviving mutant; writes reports/mutation/<module>.html
 * and a summary JSON. Decision record 014 says why and how.
 *
 * Modules: refund, sign-in, session, settlement, paybylink. The functions mutated are found by
 * name (not line numbers), so the ranges follow the code as it changes.
 *
 * `npm run test:mutation -- --sql [module …]` mutates the SQL text instead (scripts/sql-mutation.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Stryker, type PartialStrykerOptions } from '@stryker-mutator/core';

interface Module {
  /** Files to mutate: a whole file, or only the named top-level functions of it. */
  mutate: { file: string; functions?: string[] }[];
  /** The test files that hold this module's rules (nothing else runs). */
  tests: string[];
}

const API = 'apps/api/src/modules';
export const MODULES: Record<string, Module> = {
  refund: {
    mutate: [{ file: `${API}/txn/refund.service.ts` }, { file: `${API}/txn/refund.repo.ts` }],
    tests: [`${API}/txn/refund.test.ts`],
  },
  'sign-in': {
    mutate: [{ file: `${API}/user/login.service.ts` }],
    // The sign-in rules are held by these files together: the code and lockout (login), the
    // authenticator second step (account.security), password expiry (account.password), the
    // attack paths (login.attack) and the step-up check (session).
    tests: [`${API}/user/login.test.ts`, `${API}/user/session.test.ts`, `${API}/account/account.security.test.ts`, `${API}/account/account.password.test.ts`, `${API}/account/login.attack.test.ts`],
  },
  session: {
    mutate: [{ file: `${API}/user/session.service.ts` }],
    tests: [`${API}/user/session.test.ts`, 'apps/api/src/plugins/auth.cache.test.ts'],
  },
  settlement: {
    mutate: [{ file: `${API}/payments/settlement/settle.run.ts` }, { file: `${API}/payments/settlement/settle.schedule.ts` }],
    tests: [`${API}/payments/settlement/settle.test.ts`, `${API}/payments/settlement/settle-transfer.test.ts`, `${API}/payments/settlement/schedule.test.ts`],
  },
  paybylink: {
    mutate: [
      { file: `${API}/paybylink/paybylink.service.ts`, functions: ['loadOrder', 'updateOrder', 'closeOrder'] },
      { file: `${API}/paybylink/paybylink.sync.ts`, functions: ['syncProcessing'] },
      { file: `${API}/paybylink/paybylink.repo.ts`, functions: ['updateOpenOrder', 'closeOpenOrder', 'claimForPayment', 'settlePayment', 'expireDue'] },
      { file: `${API}/checkout/checkout.service.ts`, functions: ['payCheckout'] },
    ],
    tests: [
      `${API}/paybylink/paybylink.update.test.ts`,
      `${API}/paybylink/paybylink.race.test.ts`,
      `${API}/paybylink/paybylink.add.test.ts`,
      `${API}/paybylink/paybylink.list.test.ts`,
      `${API}/paybylink/attachment.test.ts`,
      `${API}/checkout/checkout.test.ts`,
    ],
  },
};

/** `file:start-end` for each named top-level function (from its line to the next top-level closing brace). */
export function mutateRanges(m: Module['mutate'][number]): string[] {
  if (!m.functions) return [m.file];
  const lines = fs.readFileSync(m.file, 'utf8').split('\n');
  return m.functions.map((name) => {
    const start = lines.findIndex((l) => new RegExp(`^export (async )?function ${name}\\b|^(export )?const ${name}\\b`).test(l));
    if (start < 0) throw new Error(`${m.file}: no top-level function ${name}`);
    const end = lines.findIndex((l, i) => i > start && l.startsWith('}'));
    return `${m.file}:${start + 1}-${end + 1}`;
  });
}

interface Tally {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  errors: number;
  ignored: number;
}

function score(t: Tally): number {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid ? ((t.killed + t.timeout) / valid) * 100 : 100;
}

async function runModule(name: string, m: Module) {
  const options: PartialStrykerOptions = {
    testRunner: 'vitest',
    vitest: { configFile: 'vitest.config.ts', related: false },
    plugins: ['@stryker-mutator/vitest-runner'],
    mutate: m.mutate.flatMap(mutateRanges),
    testFiles: m.tests,
    coverageAnalysis: 'perTest',
    // Module-level constants (SQL text, message tables) are "static": testing them means reloading
    // everything for each; their rules are held by the hand-applied mutations of decision 014.
    ignoreStatic: true,
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
    // MUTATION_INCREMENTAL=1 re-tests only the mutants whose code or tests changed: quick while
    // writing tests, but seen to keep a stale "survived" for a mutant a newly added test kills, so
    // the score reported is from a full run (the default).
    incremental: process.env.MUTATION_INCREMENTAL === '1',
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    timeoutMS: 60_000,
    timeoutFactor: 2,
    disableTypeChecks: true,
    ignorePatterns: ['apps/web', 'bench', 'docs', 'e2e-artifacts', 'test-results', 'reports', 'data', '.stryker-tmp'],
    tempDirName: `.stryker-tmp/${name}`,
    cleanTempDir: true,
    reporters: ['html', 'json', 'progress-append-only'],
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    thresholds: { high: 90, low: 85, break: null },
    logLevel: 'warn',
  };
  const t0 = Date.now();
  const results = await new Stryker(options).runMutationTest();
  const tally: Tally = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, errors: 0, ignored: 0 };
  const survivors: string[] = [];
  for (const r of results) {
    if (r.status === 'Killed') tally.killed++;
    else if (r.status === 'Timeout') tally.timeout++;
    else if (r.status === 'Survived' || r.status === 'NoCoverage') {
      if (r.status === 'Survived') tally.survived++;
      else tally.noCoverage++;
      const where = `${path.relative(process.cwd(), r.fileName)}:${r.location.start.line}`;
      survivors.push(`    ${r.status === 'Survived' ? 'survived' : 'no coverage'}  ${where}  ${r.mutatorName}: ${JSON.stringify(r.replacement ?? '')}`);
    } else if (r.status === 'Ignored') tally.ignored++;
    else tally.errors++;
  }
  return { name, tally, score: score(tally), survivors, minutes: (Date.now() - t0) / 60_000 };
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) {
    console.error('test:mutation runs on PostgreSQL: set TEST_DATABASE_URL=postgres://…');
    process.exit(2);
  }
  // Only PostgreSQL: the engine where the concurrency guards are real (and one engine is half the time).
  process.env.TEST_DB_KINDS ??= 'postgres';
  const wanted = process.argv.slice(2);
  const names = wanted.length ? wanted : Object.keys(MODULES);
  for (const n of names) if (!MODULES[n]) throw new Error(`unknown module ${n}; one of ${Object.keys(MODULES).join(', ')}`);
  fs.mkdirSync('reports/mutation', { recursive: true });
  const done = [];
  for (const n of names) {
    console.log(`\n== mutation testing: ${n}`);
    const r = await runModule(n, MODULES[n]);
    done.push(r);
    console.log(
      `== ${n}: score ${r.score.toFixed(1)} % (killed ${r.tally.killed}, timeout ${r.tally.timeout}, survived ${r.tally.survived}, no coverage ${r.tally.noCoverage}, ignored ${r.tally.ignored}) in ${r.minutes.toFixed(1)} min`,
    );
    fs.writeFileSync(`reports/mutation/summary-${n}.json`, JSON.stringify(r, null, 2));
  }
  console.log('\nMutation score per module (target ≥ 85 %):');
  for (const r of done) {
    console.log(
      `  ${r.name.padEnd(12)} ${r.score.toFixed(1).padStart(5)} %  (${r.tally.killed + r.tally.timeout} of ${r.tally.killed + r.tally.timeout + r.tally.survived + r.tally.noCoverage} detected)`,
    );
    for (const s of r.survivors) console.log(s);
  }
  if (done.some((r) => r.score < 85)) process.exitCode = 1;
}

if (process.argv.includes('--sql')) {
  // the SQL text itself (scripts/sql-mutation.ts): same modules, their SQL literals mutated
  const { sqlMain } = await import('./sql-mutation');
  await sqlMain(
    MODULES,
    process.argv.slice(2).filter((a) => a !== '--sql'),
  );
} else await main();
