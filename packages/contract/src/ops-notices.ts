import { z } from 'zod';
import { isoDateTime, multilineTextInput, textInput, timeZoneInput } from './input';

/** Notices in the back office (decision 044): who a notice reaches. A group's notice reaches the group and its sub-merchants. */
export const OPS_NOTICE_TARGETS = ['all', 'merchants', 'group'] as const;
export type OpsNoticeTarget = (typeof OPS_NOTICE_TARGETS)[number];
export type OpsNoticeStatus = 'scheduled' | 'published' | 'withdrawn';

const merId = z
  .string()
  .trim()
  .regex(/^\d{15}$/, 'merchant id');
/** One attached file: its name and its content in base64 (PDF, CSV, PNG, JPG, checked by content; at most 20 MiB). */
export const opsNoticeFileSchema = z.object({
  name: textInput(200, { min: 1 }),
  contentBase64: z
    .string()
    .max(28_000_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
});

/**
 * A notice as the operator writes it. publishAt: a wall time 'yyyy-MM-dd HH:mm:ss' in timeZone (the
 * operator's zone, an IANA name); absent: at once.
 */
export const opsNoticeSchema = z
  .object({
    title: textInput(200, { min: 1 }),
    summary: textInput(500).optional(),
    content: multilineTextInput(20_000, { min: 1 }),
    level: z.enum(['info', 'important']).default('info'),
    target: z.enum(OPS_NOTICE_TARGETS),
    merchants: z.array(merId).max(500).default([]),
    groupId: merId.optional(),
    publishAt: isoDateTime.optional(),
    timeZone: timeZoneInput().optional(),
    files: z.array(opsNoticeFileSchema).max(5).default([]),
    /** On edit: attachments to drop. */
    removeAttachments: z.array(z.number().int().positive()).max(20).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.target === 'merchants' && v.merchants.length === 0) ctx.addIssue({ code: 'custom', path: ['merchants'], message: 'at least one merchant' });
    if (v.target === 'group' && !v.groupId) ctx.addIssue({ code: 'custom', path: ['groupId'], message: 'a group' });
    if (v.publishAt && !v.timeZone) ctx.addIssue({ code: 'custom', path: ['timeZone'], message: 'the time zone of publishAt' });
  });
export type OpsNoticeInput = z.infer<typeof opsNoticeSchema>;

export interface OpsNoticeRow {
  id: number;
  title: string;
  summary: string;
  content: string;
  level: 'info' | 'important';
  status: OpsNoticeStatus;
  target: OpsNoticeTarget;
  merchants: string[];
  groupId: string | null;
  publishedAt: string;
  createdBy: string | null;
  createdAt: string | null;
  withdrawnAt: string | null;
  withdrawnBy: string | null;
  attachments: { id: number; fileName: string; format: string; sizeBytes: number }[];
}
