import { z } from 'zod';

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
