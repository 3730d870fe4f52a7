import {
  Code,
  Perm,
  INACTIVE_DAYS_MAX,
  INACTIVE_DAYS_MIN,
  type AccessPolicy,
  type AccessPolicyInput,
  type ReviewDecideInput,
  type ReviewDecision,
  type ReviewRecord,
  type ReviewRecordItem,
  type ReviewState,
  type ReviewUser,
} from '@portal/contract';
import type { Queryable } from '../../db/db';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import { formatInZone } from '../../lib/zone';
import { platformDate } from '../../lib/zone';
import { AccessAudit, DEFAULT_INACTIVE_DAYS, SINCE_SQL } from './access.job';
import { assertMainUser, removeUser, updateUserStatus, type Meta } from './team.service';
import { insertApproval } from './approvals.repo';
import { notifyApprovers } from './approvals.notify';

/**
 * Access that expires (issue 28 item 3, decision 048): the merchant's inactivity limit and the
 * quarterly access review. What holds:
 * - only main users with user management, and only for a merchant in their scope (else 404);
 * - the review covers the users of the merchant (a group: and of its sub-merchants) that the
 *   caller reaches; another merchant's user answers 404;
 * - a revoke goes through the team service (disable / remove) with all its rules — not oneself,
 *   never the last administrator, only users whose whole scope lies within the caller's — and the
 *   decision is recorded in that service's transaction, so a refused revoke records nothing;
 * - a review is completed once every covered user has a decision; each decision keeps what the
 *   user had then; reviews and decisions are audited and stay readable.
 */

const DAY_MS = 86_400_000;

async function limitOf(q: Queryable, merId: string): Promise<AccessPolicy> {
  const { rows } = await q.query<{ own: number | null; grp: number | null }>(
    `SELECT (SELECT inactive_days FROM access_policy WHERE mer_id = $1) AS own,
            (SELECT p.inactive_days FROM access_policy p JOIN merchant m ON m.parent_id = p.mer_id WHERE m.mer_id = $1) AS grp`,
    [merId],
  );
  const r = rows[0];
  // Issue 47: the group's limit is a floor — a sub-merchant's own only shortens it.
  if (r?.own != null && (r.grp == null || r.own <= r.grp)) return { merId, inactiveDays: r.own, source: 'own' };
  if (r?.grp != null) return { merId, inactiveDays: r.grp, source: 'group' };
  return { merId, inactiveDays: DEFAULT_INACTIVE_DAYS, source: 'default' };
}

async function groupLimit(q: Queryable, merId: string): Promise<number | null> {
  const { rows } = await q.query<{ d: number }>('SELECT p.inactive_days AS d FROM access_policy p JOIN merchant m ON m.parent_id = p.mer_id WHERE m.mer_id = $1', [merId]);
  return rows[0]?.d ?? null;
}

export async function getAccessPolicy(deps: Deps, caller: SessionUser, merId = caller.merId): Promise<AccessPolicy> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  return limitOf(deps.db, merId);
}

/**
 * Sets the inactivity limit. Issue 47: a sub-merchant cannot set more days than its group's (a
 * floor), and more days than now (a looser limit) waits for a second administrator's approval
 * (kind policy_change), carried out by it; fewer days apply at once.
 */
export async function saveAccessPolicy(deps: Deps, caller: SessionUser, input: AccessPolicyInput, meta: Meta, opts: { approvalId?: number } = {}): Promise<AccessPolicy> {
  assertMainUser(caller);
  if (!caller.scope.includes(input.merId)) throw notFound();
  if (input.inactiveDays < INACTIVE_DAYS_MIN || input.inactiveDays > INACTIVE_DAYS_MAX) throw new AppError(Code.BAD_REQUEST, 'accessBadDays', {}, 400);
  let approval: number | null = null;
  const out = await deps.db.tx(async (q) => {
    await q.query('SELECT 1 FROM merchant WHERE mer_id = $1 FOR UPDATE', [input.merId]);
    const before = await limitOf(q, input.merId);
    const floor = await groupLimit(q, input.merId);
    if (floor !== null && input.inactiveDays > floor) throw new AppError(Code.BAD_REQUEST, 'policyBelowGroup', { rules: 'inactiveDays' }, 400);
    if (opts.approvalId === undefined && input.inactiveDays > before.inactiveDays) {
      approval = await insertApproval(q, {
        merId: input.merId,
        kind: 'policy_change',
        permission: Perm.merchantUserManage,
        user: caller,
        now: deps.clock.now(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        payload: { access: input },
        summary: { policy: 'inactivity', merId: input.merId, loosened: ['inactiveDays'], before: `inactiveDays ${before.inactiveDays}`, after: `inactiveDays ${input.inactiveDays}` },
      });
      return before;
    }
    await q.query(
      `INSERT INTO access_policy (mer_id, inactive_days, updated_by, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (mer_id) DO UPDATE SET inactive_days = EXCLUDED.inactive_days, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [input.merId, input.inactiveDays, caller.id, deps.clock.now()],
    );
    const after = await limitOf(q, input.merId);
    await audit(q, {
      action: AccessAudit.policy,
      userId: caller.id,
      username: caller.username,
      merId: input.merId,
      target: input.merId,
      detail: { before, after, ...(opts.approvalId !== undefined ? { approvalId: opts.approvalId } : {}) },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return after;
  });
  if (approval !== null) {
    await notifyApprovers(deps, approval);
    throw new AppError(Code.APPROVAL_REQUIRED, 'policyLoosenNeedsApproval', { id: approval }, 200);
  }
  return out;
}

/** The quarter of `now` in the platform zone, e.g. 2026-Q4. */
function quarterOf(now: Date, tz: string): string {
  const d = platformDate(now, tz);
  return `${d.slice(0, 4)}-Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`;
}

interface CoveredRow {
  id: number;
  username: string;
  email: string;
  role: string | null;
  role_name: string | null;
  user_admin: boolean;
  permissions: string[];
  mer_ids: string[];
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  last_login_at: Date | null;
  access_ends_on: string | null;
  since: Date;
}

const MER_IDS = `COALESCE(NULLIF(ARRAY(SELECT us.mer_id::text FROM user_merchant_scope us WHERE us.user_id = u.id ORDER BY 1), '{}'),
  ARRAY(SELECT sm.mer_id::text FROM merchant sm WHERE sm.mer_id = m.mer_id OR (m.attribute = 'GROUP' AND sm.parent_id = m.mer_id) ORDER BY 1))`;

/** The users a review of `merId` covers: of the merchant or its sub-merchants, within the caller's scope, not removed. */
async function covered(q: Queryable, merId: string, scope: string[], userId?: number): Promise<CoveredRow[]> {
  const { rows } = await q.query<CoveredRow>(
    `SELECT u.id, u.username, u.email, u.role, (SELECT tr.name FROM team_role tr WHERE tr.id = u.team_role_id) AS role_name, u.user_admin,
            u.permissions, ${MER_IDS} AS mer_ids, u.status, (SELECT max(s.created_at) FROM user_session s WHERE s.user_id = u.id) AS last_login_at,
            u.access_ends_on::text AS access_ends_on, ${SINCE_SQL} AS since
       FROM app_user u JOIN merchant m ON m.mer_id = u.mer_id
      WHERE u.removed_at IS NULL AND u.mer_id = ANY($2::text[]) AND (m.mer_id = $1 OR m.parent_id = $1) AND ($3::int IS NULL OR u.id = $3::int)
      ORDER BY u.username`,
    [merId, scope, userId ?? null],
  );
  return rows;
}

const snapshotOf = (u: CoveredRow, tz: string) => ({
  role: (u.role ?? (u.user_admin ? 'ADMIN' : null)) as string | null,
  roleName: u.role_name,
  permissions: [...u.permissions].sort(),
  merIds: u.mer_ids,
  lastLoginTime: u.last_login_at ? formatInZone(u.last_login_at, tz) : null,
  accessEndsOn: u.access_ends_on,
});

async function openReview(q: Queryable, merId: string): Promise<{ id: number; started_by: string; started_at: Date } | undefined> {
  const { rows } = await q.query<{ id: number; started_by: string; started_at: Date }>(
    `SELECT r.id, u.username AS started_by, r.started_at FROM access_review r JOIN app_user u ON u.id = r.started_by WHERE r.mer_id = $1 AND r.completed_at IS NULL`,
    [merId],
  );
  return rows[0];
}

/** The review screen: the merchant's users with their grants and the open review's decisions. */
export async function reviewState(deps: Deps, caller: SessionUser, merId = caller.merId): Promise<ReviewState> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  const tz = deps.config.platformTz;
  const now = deps.clock.now();
  const quarter = quarterOf(now, tz);
  const open = await openReview(deps.db, merId);
  const { rows: last } = await deps.db.query<{ completed_at: Date; quarter: string }>(
    'SELECT completed_at, quarter FROM access_review WHERE mer_id = $1 AND completed_at IS NOT NULL ORDER BY completed_at DESC LIMIT 1',
    [merId],
  );
  const decisions = new Map<number, { decision: ReviewDecision; by: string; at: Date }>();
  if (open) {
    const { rows } = await deps.db.query<{ user_id: number; decision: ReviewDecision; by: string; at: Date }>(
      'SELECT i.user_id, i.decision, u.username AS by, i.decided_at AS at FROM access_review_item i JOIN app_user u ON u.id = i.decided_by WHERE i.review_id = $1',
      [open.id],
    );
    for (const r of rows) decisions.set(r.user_id, r);
  }
  const policy = await limitOf(deps.db, merId);
  const users: ReviewUser[] = (await covered(deps.db, merId, caller.scope)).map((u) => {
    const d = decisions.get(u.id);
    const s = snapshotOf(u, tz);
    return {
      userId: u.id,
      userName: u.username,
      email: u.email,
      ...s,
      status: u.status,
      inactiveDays: Math.max(0, Math.floor((now.getTime() - new Date(u.since).getTime()) / DAY_MS)),
      self: u.id === caller.id,
      manageable: u.mer_ids.every((m) => caller.scope.includes(m)),
      decision: d?.decision ?? null,
      decidedBy: d?.by ?? null,
      decideTime: d ? formatInZone(d.at, tz) : null,
    };
  });
  return {
    merId,
    quarter,
    due: !last[0] || last[0].quarter !== quarter,
    lastCompleteTime: last[0] ? formatInZone(last[0].completed_at, tz) : null,
    open: open ? { id: open.id, startedBy: open.started_by, startTime: formatInZone(open.started_at, tz) } : null,
    inactiveDays: policy.inactiveDays,
    users,
  };
}

/**
 * One decision of the review (opened by the first decision): confirm, or revoke through the team
 * service (disable / remove) with the decision recorded in its transaction.
 */
export async function decideReview(deps: Deps, caller: SessionUser, input: ReviewDecideInput, meta: Meta): Promise<ReviewState> {
  assertMainUser(caller);
  if (!caller.scope.includes(input.merId)) throw notFound();
  if (!(await covered(deps.db, input.merId, caller.scope, input.userId))[0]) throw notFound();
  const now = deps.clock.now();
  const tz = deps.config.platformTz;
  await deps.db.query(
    `INSERT INTO access_review (mer_id, quarter, started_by, started_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (mer_id) WHERE completed_at IS NULL DO NOTHING`,
    [input.merId, quarterOf(now, tz), caller.id, now],
  );
  const decision: ReviewDecision = input.decision === 'CONFIRM' ? 'CONFIRMED' : input.decision === 'DISABLE' ? 'DISABLED' : 'REMOVED';
  const record = async (q: Queryable) => {
    const review = await q.query<{ id: number }>('SELECT id FROM access_review WHERE mer_id = $1 AND completed_at IS NULL FOR UPDATE', [input.merId]);
    const u = (await covered(q, input.merId, caller.scope, input.userId))[0];
    if (!review.rows[0] || !u) throw notFound();
    await q.query(
      `INSERT INTO access_review_item (review_id, user_id, username, decision, snapshot, decided_by, decided_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (review_id, user_id) DO UPDATE SET decision = EXCLUDED.decision, snapshot = EXCLUDED.snapshot, decided_by = EXCLUDED.decided_by, decided_at = EXCLUDED.decided_at`,
      [review.rows[0].id, u.id, u.username, decision, JSON.stringify(snapshotOf(u, tz)), caller.id, deps.clock.now()],
    );
    return { reviewId: review.rows[0].id, u };
  };
  if (input.decision === 'CONFIRM') {
    await deps.db.tx(async (q) => {
      const { reviewId, u } = await record(q);
      await audit(q, {
        action: AccessAudit.reviewDecision,
        userId: caller.id,
        username: caller.username,
        merId: input.merId,
        target: u.username,
        detail: { reviewId, userId: u.id, decision },
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
    });
  } else {
    const opts = { reason: 'access review', within: async (q: Queryable) => void (await record(q)) };
    if (input.decision === 'DISABLE') await updateUserStatus(deps, caller, input.userId, 'DISABLED', meta, opts);
    else await removeUser(deps, caller, input.userId, meta, opts);
  }
  return reviewState(deps, caller, input.merId);
}

/** Completes the open review once every covered user has a decision. */
export async function completeReview(deps: Deps, caller: SessionUser, merId: string, meta: Meta): Promise<ReviewRecord> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  const id = await deps.db.tx(async (q) => {
    const review = (await q.query<{ id: number }>('SELECT id FROM access_review WHERE mer_id = $1 AND completed_at IS NULL FOR UPDATE', [merId])).rows[0];
    if (!review) throw new AppError(Code.CONFLICT, 'reviewNotOpen', {}, 200);
    const decided = new Set((await q.query<{ user_id: number }>('SELECT user_id FROM access_review_item WHERE review_id = $1', [review.id])).rows.map((r) => r.user_id));
    const left = (await covered(q, merId, caller.scope)).filter((u) => !decided.has(u.id));
    if (left.length) throw new AppError(Code.CONFLICT, 'reviewIncomplete', { count: left.length }, 200);
    await q.query('UPDATE access_review SET completed_by = $2, completed_at = $3 WHERE id = $1', [review.id, caller.id, deps.clock.now()]);
    const counts = (await q.query<{ decision: string; n: number }>('SELECT decision, count(*)::int AS n FROM access_review_item WHERE review_id = $1 GROUP BY decision', [review.id])).rows;
    await audit(q, {
      action: AccessAudit.reviewCompleted,
      userId: caller.id,
      username: caller.username,
      merId,
      target: `access review #${review.id}`,
      detail: { reviewId: review.id, ...Object.fromEntries(counts.map((c) => [c.decision, c.n])) },
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return review.id;
  });
  return (await reviewHistory(deps, caller, merId, 0, 1, id)).content[0];
}

/** Past (and the open) reviews of a merchant, newest first, with their decisions counted. */
export async function reviewHistory(deps: Deps, caller: SessionUser, merId = caller.merId, page = 0, size = 10, onlyId?: number): Promise<{ content: ReviewRecord[]; totalElements: number }> {
  assertMainUser(caller);
  if (!caller.scope.includes(merId)) throw notFound();
  const tz = deps.config.platformTz;
  const total = (await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM access_review WHERE mer_id = $1', [merId])).rows[0].n;
  const { rows } = await deps.db.query<{
    id: number;
    mer_id: string;
    quarter: string;
    started_by: string;
    started_at: Date;
    completed_by: string | null;
    completed_at: Date | null;
    c: number;
    d: number;
    r: number;
  }>(
    `SELECT r.id, r.mer_id, r.quarter, su.username AS started_by, r.started_at, cu.username AS completed_by, r.completed_at,
            (SELECT count(*)::int FROM access_review_item i WHERE i.review_id = r.id AND i.decision = 'CONFIRMED') AS c,
            (SELECT count(*)::int FROM access_review_item i WHERE i.review_id = r.id AND i.decision = 'DISABLED') AS d,
            (SELECT count(*)::int FROM access_review_item i WHERE i.review_id = r.id AND i.decision = 'REMOVED') AS r
       FROM access_review r JOIN app_user su ON su.id = r.started_by LEFT JOIN app_user cu ON cu.id = r.completed_by
      WHERE r.mer_id = $1 AND ($2::int IS NULL OR r.id = $2::int)
      ORDER BY r.started_at DESC, r.id DESC LIMIT ${size} OFFSET ${page * size}`,
    [merId, onlyId ?? null],
  );
  return {
    totalElements: total,
    content: rows.map((r) => ({
      id: r.id,
      merId: r.mer_id,
      quarter: r.quarter,
      startedBy: r.started_by,
      startTime: formatInZone(r.started_at, tz),
      completedBy: r.completed_by,
      completeTime: r.completed_at ? formatInZone(r.completed_at, tz) : null,
      confirmed: r.c,
      disabled: r.d,
      removed: r.r,
    })),
  };
}

/** One review's decisions, each with what the user had then. Another merchant's review: 404. */
export async function reviewDetail(deps: Deps, caller: SessionUser, id: number): Promise<{ review: ReviewRecord; items: ReviewRecordItem[] }> {
  assertMainUser(caller);
  const { rows } = await deps.db.query<{ mer_id: string }>('SELECT mer_id FROM access_review WHERE id = $1', [id]);
  if (!rows[0] || !caller.scope.includes(rows[0].mer_id)) throw notFound();
  const review = (await reviewHistory(deps, caller, rows[0].mer_id, 0, 1, id)).content[0];
  const { rows: items } = await deps.db.query<{ user_id: number; username: string; decision: ReviewDecision; by: string; decided_at: Date; snapshot: ReturnType<typeof snapshotOf> }>(
    `SELECT i.user_id, i.username, i.decision, u.username AS by, i.decided_at, i.snapshot FROM access_review_item i JOIN app_user u ON u.id = i.decided_by
      WHERE i.review_id = $1 ORDER BY i.username`,
    [id],
  );
  const tz = deps.config.platformTz;
  return {
    review,
    items: items.map((i) => ({ userId: i.user_id, userName: i.username, decision: i.decision, decidedBy: i.by, decideTime: formatInZone(i.decided_at, tz), ...i.snapshot })),
  };
}
