/**
 * The query of a list screen as it travels: filters read from the URL, page and size. Undefined,
 * null and '' are left out by the client, arrays comma-joined (apps/web/src/lib/request.ts).
 */
export type WireQuery = Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>;
