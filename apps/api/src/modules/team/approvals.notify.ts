import type { Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { t } from '../../lib/messages';
import { publicBase } from '../../lib/public-url';

/**
 * E-mails a request's possible approvers (issue 28): the active users who hold its permission and
 * reach its merchant, its requester left out. Called after the request's COMMIT (no mail inside a
 * transaction); the time it went is recorded on the request afterwards. A failure to send leaves
 * `notified_at` empty and the request in the approvals list, where approvers see it anyway.
 */
export async function notifyApprovers(deps: Deps, approvalId: number, lang: Language = 'en'): Promise<number> {
  const { rows: reqs } = await deps.db.query<{ mer_id: string; kind: string; permission: string; requested_by: number; summary: Record<string, unknown>; requester: string }>(
    `SELECT r.mer_id, r.kind, r.permission, r.requested_by, r.summary, u.username AS requester
       FROM approval_request r JOIN app_user u ON u.id = r.requested_by WHERE r.id = $1 AND r.status = 'PENDING' AND r.notified_at IS NULL`,
    [approvalId],
  );
  const r = reqs[0];
  if (!r) return 0;
  const { rows: to } = await deps.db.query<{ email: string; username: string }>(
    `SELECT u.email, u.username FROM app_user u
      WHERE u.id <> $3 AND u.removed_at IS NULL AND u.status = 'ACTIVE' AND $2 = ANY(u.permissions)
        -- a bank change is decided by main users only (decision 049)
        AND ($4::text <> 'bank_change' OR u.user_type = 'MAIN')
        AND (u.mer_id = $1 OR u.mer_id = (SELECT m.parent_id FROM merchant m WHERE m.mer_id = $1))
        AND (NOT EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id)
             OR EXISTS (SELECT 1 FROM user_merchant_scope us WHERE us.user_id = u.id AND us.mer_id = $1))
      ORDER BY u.id`,
    [r.mer_id, r.permission, r.requested_by, r.kind],
  );
  const what = kindText(lang, r.kind);
  const link = `${publicBase(deps)}/merchant/approvals`;
  let sent = 0;
  for (const u of to) {
    try {
      await deps.mailer.send({
        to: u.email,
        subject: t(lang, 'approvalMailSubject', { id: approvalId, what }),
        text: t(lang, 'approvalMailBody', { user: u.username, requester: r.requester, what, id: approvalId, detail: describe(r.summary), link }),
      });
      sent++;
    } catch {
      /* the list shows it; the next approver is still told */
    }
  }
  if (sent > 0) await deps.db.query('UPDATE approval_request SET notified_at = $2 WHERE id = $1', [approvalId, deps.clock.now()]);
  return sent;
}

/** The summary as plain "key: value" lines (no HTML, no secrets: it holds only what the list shows). */
const describe = (s: Record<string, unknown>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join('\n');

const kindText = (lang: Language, kind: string) =>
  t(lang, kind === 'refund' ? 'approvalKindRefund' : kind === 'bank_change' ? 'approvalKindBankChange' : kind === 'policy_change' ? 'approvalKindPolicyChange' : 'approvalKindPermissionRaise');

/**
 * Tells a rejected request's requester (decision 049: bank changes), after the decision's COMMIT,
 * in the requester's language (the one they asked in, kept in the payload; else English). A failed send is
 * left: the requester sees the rejection in the approvals list and on the bank tab.
 */
export async function notifyRequesterOfRejection(deps: Deps, approvalId: number): Promise<boolean> {
  const { rows } = await deps.db.query<{ kind: string; summary: Record<string, unknown>; note: string | null; email: string; username: string; decider: string; payload: { lang?: string } }>(
    `SELECT r.kind, r.summary, r.note, r.payload, u.email, u.username, d.username AS decider
       FROM approval_request r JOIN app_user u ON u.id = r.requested_by JOIN app_user d ON d.id = r.decided_by
      WHERE r.id = $1 AND r.status = 'REJECTED' AND u.removed_at IS NULL`,
    [approvalId],
  );
  const r = rows[0];
  if (!r?.email) return false;
  const lang = (['en', 'zh', 'ko', 'ja'] as const).find((l) => l === r.payload?.lang) ?? 'en';
  const what = kindText(lang, r.kind);
  try {
    await deps.mailer.send({
      to: r.email,
      subject: t(lang, 'approvalRejectedMailSubject', { id: approvalId, what }),
      text: t(lang, 'approvalRejectedMailBody', {
        user: r.username,
        decider: r.decider,
        id: approvalId,
        what,
        note: r.note || t(lang, 'approvalNoReason'),
        detail: describe(r.summary),
        link: `${publicBase(deps)}/merchant/approvals`,
      }),
    });
    return true;
  } catch {
    return false;
  }
}
