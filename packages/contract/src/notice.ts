export interface NoticeRow {
  id: number;
  title: string;
  summary: string;
  level: 'info' | 'important';
  publishedAt: string;
  link?: string | null;
}
export interface NoticeDetail extends NoticeRow {
  content: string;
}
