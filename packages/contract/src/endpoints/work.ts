import type { Page } from '../api';
import { Perm } from '../permissions';
import type { Schedule, ScheduleRecipient } from '../schedule';
import type { SavedView, ViewScreenKey } from '../views';
import { get, post } from './endpoint';
import type { WireQuery } from './wire';

type Id = { id: number };

/** Scheduled reports (issue 20). The create / update form carries the screen's wire query as JSON text. */
export const ScheduleApi = {
  list: get<{ page: number; size: number }, Page<Schedule>>('/api/report/schedule/list', Perm.reportFile),
  recipients: get<void, ScheduleRecipient[]>('/api/report/schedule/recipients', Perm.reportFile),
  create: post<WireQuery, Schedule>('/api/report/schedule/create', Perm.reportFile),
  update: post<WireQuery, Schedule>('/api/report/schedule/update', Perm.reportFile),
  pause: post<Id, Schedule>('/api/report/schedule/pause', Perm.reportFile),
  resume: post<Id, Schedule>('/api/report/schedule/resume', Perm.reportFile),
  delete: post<Id, null>('/api/report/schedule/delete', Perm.reportFile),
  sendNow: post<Id, null>('/api/report/schedule/sendNow', Perm.reportFile),
} as const;

/** Saved views of the list screens (issue 13): the user's own and the shared ones. */
export const ViewsApi = {
  list: get<{ screen: ViewScreenKey }, Page<SavedView>>('/api/views', 'signed-in'),
  add: post<{ screen: ViewScreenKey; name: string; query: string; shared: boolean }, SavedView>('/api/views/add', 'signed-in'),
  setDefault: post<{ screen: ViewScreenKey; viewId?: number }, null>('/api/views/default', 'signed-in'),
  get: get<{ id: string | number }, SavedView>('/api/views/:id', 'signed-in'),
  update: post<{ id: number; name?: string; query?: string; shared?: boolean }, SavedView>('/api/views/:id/update', 'signed-in'),
  remove: post<Id, null>('/api/views/:id/remove', 'signed-in'),
} as const;

/**
 * Development helpers (never registered in production, loopback callers only): the outboxes, a
 * not-activated user, the month-end jobs, a failed job, sandbox disputes. The e2e specs call them.
 */
export const DevApi = {
  mailbox: get<void, unknown[]>('/api/dev/mailbox', 'public'),
  sms: get<void, unknown[]>('/api/dev/sms', 'public'),
  invite: post<{ username: string; email: string }, null>('/api/dev/invite', 'public', 'json'),
  runJob: post<{ job: 'monthEnd'; at: string }, { settlement: unknown; statements: unknown }>('/api/dev/runJob', 'public', 'json'),
  failedJob: post<void, { id: number }>('/api/dev/failedJob', 'public'),
  disputes: post<{ count?: number; key?: boolean; merId?: string; tick?: boolean; purchase?: string }, Record<string, unknown>>('/api/dev/disputes', 'public', 'json'),
} as const;
