/**
 * The team module's door (issue 45 §1–2): what other modules may use of the team and its four
 * eyes. A module imports the team from here, never from its files (`npm run lint:deps`).
 */
export { ApprovalAudit } from './approvals.repo';
export { insertApproval } from './approvals.repo';
export { notifyApprovers } from './approvals.notify';
