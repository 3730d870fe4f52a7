/**
 * The files module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { filesRoutes } from './files.routes';
import { setUpFilesJobs } from './files.background';
import { publishDueStatements } from './documents.service';

/** Files download: statements, fee schedules, documents; the monthly statement job. */
export const manifest = defineModule({
  name: 'files',
  routes: filesRoutes,
  jobs: [setUpFilesJobs],
  // The demo's first start publishes the statements of the months its data covers, as the month-end
  // job would: in the preparation process (server.ts), whose memory ends with it — 4 languages of
  // PDFs with CJK faces take ~200 MB while they are made (issue 52).
  afterSeed: async (deps) => void (await publishDueStatements(deps.db, deps.config.dataDir, deps.config.platformTz, deps.clock.now())),
});

// What other modules use of it (issue 45 §2: through this door only).
export { monthlyStatementJob } from './documents.service';
