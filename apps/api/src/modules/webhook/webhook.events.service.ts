import { WEBHOOK_TEST_EVENT } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { notFound } from '../../lib/errors';
import { eventBody } from './webhook.render';

/** The events to pull (issue 50: GET /v1/events), each as its delivery's body in the asked version. */
/** An event as delivered (the body's JSON), for GET /v1/events. */
export interface DeliveredEvent {
  id: string;
  type: string;
  /** Unix seconds, before Portal-Version 2026-12-03 */
  created?: number;
  /** ISO-8601 UTC, from Portal-Version 2026-12-03 */
  created_at?: string;
  merId: string;
  data: Record<string, unknown>;
}

interface EventRow {
  id: number;
  event_id: string;
  type: string;
  mer_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const delivered = (r: EventRow, version?: string): DeliveredEvent => JSON.parse(eventBody({ event_id: r.event_id, type: r.type, mer_id: r.mer_id, data: r.data, created_at: r.created_at }, version));
/** Events are kept 30 days (the purge job deletes older ones); older ones are not listed even before it runs. */
const EVENTS_KEPT_MS = 30 * 86_400_000;

/**
 * The scope's events newest first (issue 50), `limit` after the event `after` (its row id; keyset
 * paging: an event added meanwhile never shifts a page), optionally of one type or a type's prefix
 * (`refund.` …). Returns one more than `limit` when there are more. The test event is not listed.
 */
export async function listEvents(deps: Deps, scope: string[], f: { type?: string; limit: number; after?: number; version?: string }): Promise<{ rowId: number; event: DeliveredEvent }[]> {
  const since = new Date(deps.clock.now().getTime() - EVENTS_KEPT_MS);
  const prefix = f.type?.endsWith('.') ? f.type : null;
  const { rows } = await deps.db.query<EventRow>(
    `SELECT id, event_id, type, mer_id, data, created_at FROM webhook_event
      WHERE mer_id = ANY($1::text[]) AND created_at >= $2 AND type <> $3 AND ($4::bigint IS NULL OR id < $4)
        AND ($5::text IS NULL OR type = $5) AND ($6::text IS NULL OR starts_with(type, $6))
      ORDER BY id DESC LIMIT $7`,
    [scope, since, WEBHOOK_TEST_EVENT, f.after ?? null, prefix ? null : (f.type ?? null), prefix, f.limit + 1],
  );
  return rows.map((r) => ({ rowId: Number(r.id), event: delivered(r, f.version) }));
}

/** The row id of one of the scope's events by its `evt_…` id (for a cursor), or null. */
export async function eventRowId(deps: Deps, scope: string[], eventId: string): Promise<number | null> {
  const { rows } = await deps.db.query<{ id: number }>('SELECT id FROM webhook_event WHERE event_id = $1 AND mer_id = ANY($2::text[])', [eventId, scope]);
  return rows[0] ? Number(rows[0].id) : null;
}

/** One of the scope's events (of the last 30 days) by its id; another merchant's answers as absent. */
export async function getEvent(deps: Deps, scope: string[], eventId: string, version?: string): Promise<DeliveredEvent> {
  const since = new Date(deps.clock.now().getTime() - EVENTS_KEPT_MS);
  const { rows } = await deps.db.query<EventRow>(
    'SELECT id, event_id, type, mer_id, data, created_at FROM webhook_event WHERE event_id = $1 AND mer_id = ANY($2::text[]) AND created_at >= $3 AND type <> $4',
    [eventId, scope, since, WEBHOOK_TEST_EVENT],
  );
  if (!rows[0]) throw notFound();
  return delivered(rows[0], version);
}
