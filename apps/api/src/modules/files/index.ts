/**
 * The files module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { filesRoutes } from './files.routes';
import { setUpFilesJobs } from './files.background';

/** Files download: statements, fee schedules, documents; the monthly statement job. */
export const manifest = defineModule({ name: 'files', routes: filesRoutes, jobs: [setUpFilesJobs] });

// What other modules use of it (issue 45 §2: through this door only).
export { monthlyStatementJob } from './documents.service';
