import { defineModule } from '../contract';
import { teamModule } from './team.module';
import { setUpTeamJobs } from './audit.service';
import { setUpAccessJobs } from './access.job';

/**
 * The team module's door (issue 45 §1–2): what other modules may use of the team and its four
 * eyes. A module imports the team from here, never from its files (`npm run lint:deps`).
 */
export { ApprovalAudit } from './approvals.repo';
export { insertApproval } from './approvals.repo';
export { notifyApprovers } from './approvals.notify';
export { refundApprovalOf } from './approvals.refund';
export { registerApprovalChange, registerApprovalKind, type ApprovalKind } from './approvals.kinds';
// Issue 45 §2: the links user management mails are the account module's, registered from its manifest.
export { registerUserLinks } from './team.links';

/** Team: users, roles and scope, four eyes, access reviews, the audit log. */
export const manifest = defineModule({ name: 'team', routes: teamModule, jobs: [setUpTeamJobs, setUpAccessJobs] });

// What other modules use of it (issue 45 §2: through this door only).
export { claimDailyCap, dailyCapUsed, effectivePolicy, refundLimitFor, releaseDailyCap, roleCapsOf } from './approvals.repo';
