/**
 * The report module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { reportModule } from './report.module';

/** Reports: bill, transfer, daily summary, reserve release, cash calendar, the dashboard. */
export const manifest = defineModule({ name: 'report', routes: reportModule });

// What other modules use of it (issue 45 §2: through this door only).
export { transferDef } from './report.defs';
export { listReport, registerReportExports } from './report.service';
