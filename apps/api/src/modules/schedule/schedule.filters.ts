/** The merchant filter (merId) of a report's or the transaction list's filters, if any. */
export function merchantFilterOf(params: unknown): string | null {
  const m = (params as { merId?: unknown } | null)?.merId;
  return typeof m === 'string' && m ? m : null;
}
