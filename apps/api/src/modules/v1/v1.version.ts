import type { FastifyRequest } from 'fastify';
import { formatInZone } from '../txn';

/**
 * The times of an object as its request's version answers them (issue 50: one time format per
 * object). From Portal-Version 2026-12-01: ISO-8601 UTC; in 2026-06-01: the platform zone's
 * 'YYYY-MM-DD HH:mm:ss' (the portal's format, what those objects answered before versions).
 */
export function timeOfVersion(req: FastifyRequest, tz: string): (d: Date) => string {
  const iso = req.apiVersion !== undefined && req.apiVersion >= '2026-12-01';
  return (d: Date) => (iso ? new Date(d).toISOString() : formatInZone(d, tz));
}
