/** The day the statement was last reviewed (keep in step with docs/accessibility.md). */
const REVIEWED = '2026-11-24';

export const formatDate = (lng: string) => new Intl.DateTimeFormat(lng, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${REVIEWED}T00:00:00Z`));
