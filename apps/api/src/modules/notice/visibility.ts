/**
 * The one rule of which notices a merchant user sees (decision 044), used by the notice list,
 * detail, attachment download and /files: published (publish time reached), not withdrawn, and
 * addressed to one of the caller's merchants — every merchant (an untargeted notice without
 * mer_id), its merchant (mer_id), a chosen merchant (notice_target) or its group (group_id: the
 * group itself and its sub-merchants).
 *
 * `n`: the notice's alias; `scope`, `now`: the placeholders of the caller's merchant ids (text[])
 * and of the current instant.
 */
export function noticeVisible(n: string, scope: string, now: string): string {
  return `(${n}.withdrawn_at IS NULL AND ${n}.published_at <= ${now} AND (
    ${n}.mer_id = ANY(${scope}::text[])
    OR (NOT ${n}.targeted AND ${n}.mer_id IS NULL)
    OR (${n}.targeted AND EXISTS (SELECT 1 FROM notice_target nt WHERE nt.notice_id = ${n}.id AND nt.mer_id = ANY(${scope}::text[])))
    OR (${n}.targeted AND ${n}.group_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM merchant gm WHERE gm.mer_id = ANY(${scope}::text[]) AND (gm.mer_id = ${n}.group_id OR gm.parent_id = ${n}.group_id)))))`;
}
