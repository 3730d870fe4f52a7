/**
 * The transactions module's time helpers: the one zone module (lib/zone.ts) and the one calendar
 * (lib/dates.ts), issue 45 §1.
 */
export { daysBetween } from '../../lib/dates';
export { formatInZone, offsetLabel, parseZone, zoneOffsetMinutes, zonedToUtc, type Zone } from '../../lib/zone';
