/**
 * The schedule module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { scheduleRoutes } from './schedule.routes';
import { setUpScheduleJobs } from './schedule.jobs';

/** Scheduled reports (issue 13): listed after the modules whose export sources the schedules run. */
export const manifest = defineModule({ name: 'schedule', routes: scheduleRoutes, jobs: [setUpScheduleJobs] });
