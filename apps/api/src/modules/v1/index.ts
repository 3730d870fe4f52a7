/**
 * The merchant API (/v1, issue 31; decision 039, decision 068): a module that hosts a face — its
 * API-key authentication, rate limits, error model and document — with its own thin routes over the
 * other modules' services, and every module's `v1` routes inside its scope. Its job: the hourly purge
 * of idempotency keys older than 24 hours (issue 50).
 *
 * Its door (issue 48): what a module's `/v1` routes use of the face — the request's key and its
 * scope, and the API's error. Import it from here, never from its files.
 */
import { defineModule } from '../contract';
import { v1Face } from './v1.face';
import { setUpIdempotencyJobs } from './v1.idempotency';

export const manifest = defineModule({ name: 'v1', face: v1Face, jobs: [setUpIdempotencyJobs] });
export { named, v1Registry } from './v1.registry';
export type { V1RouteConfig } from './v1.face';
export { keyOf, narrowScope } from './v1.txn.routes';
export { V1Error } from './v1.errors';
