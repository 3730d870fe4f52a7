export interface NoticeRow {
  id: number;
  title: string;
  summary: string;
  level: 'info' | 'important';
  publishedAt: string;
  link?: string | null;
}
export interface NoticeAttachment {
  id: number;
  fileName: string;
  format: string;
  sizeBytes: number;
}
export interface NoticeDetail extends NoticeRow {
  content: string;
  /** Files the provider attached (GET /notice/attachment/{id}); also listed in /files. */
  attachments?: NoticeAttachment[];
}
