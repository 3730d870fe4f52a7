import { z } from 'zod';
import { pageQuerySchema } from './api';

/** The file-report area (/report/file): the user's queued export files. */
export const EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const exportFileSchema = z.object({
  id: z.number(),
  kind: z.string(),
  fileName: z.string(),
  format: z.enum(['xlsx', 'csv']),
  status: z.enum(EXPORT_STATUSES),
  /** 0..100 while running. */
  progress: z.number(),
  rowCount: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;
export const exportQueuedSchema = z.object({ id: z.number(), status: z.enum(EXPORT_STATUSES) });

/** /files: documents the provider publishes to a merchant (not the user's own exports of /report/file). */
/** NOTICE_ATTACHMENT: a file the provider attached to a notice (downloaded with /notice/attachment/{id}). */
export const DOCUMENT_KINDS = ['MONTHLY_STATEMENT', 'FEE_SCHEDULE', 'NOTICE_ATTACHMENT'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
const blank = (v: unknown) => (v === '' ? undefined : v);
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'yyyy-MM');
export const documentListQuerySchema = pageQuerySchema.extend({
  kind: z.preprocess(blank, z.enum(DOCUMENT_KINDS).optional()),
  /** Period range by month, inclusive ('yyyy-MM'); a fee schedule's period is the day it was issued. */
  periodFrom: z.preprocess(blank, monthSchema.optional()),
  periodTo: z.preprocess(blank, monthSchema.optional()),
  currency: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[A-Z]{3}$/, 'currency')
      .optional(),
  ),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;

export const merchantDocumentSchema = z.object({
  id: z.number(),
  /** null: a notice attachment for every merchant. */
  merId: z.string().nullable(),
  kind: z.enum(DOCUMENT_KINDS),
  /** 'yyyy-MM' for a statement, 'yyyy-MM-dd' (issue date) for a fee schedule or the notice's publication. */
  period: z.string(),
  currency: z.string().nullable(),
  format: z.enum(['pdf', 'csv', 'png', 'jpg']),
  fileName: z.string(),
  sizeBytes: z.number(),
  /** The notice of an attachment. */
  noticeId: z.number().nullable(),
  publishedAt: z.string(),
  /** A statement's closing pending balance (decimal string), for the list. */
  closing: z.string().nullable(),
});
export type MerchantDocument = z.infer<typeof merchantDocumentSchema>;
