/** Today's date as YYYY-MM-DD; LEDGER_TODAY pins it (used by the batch scheduler and tests). */
export function today(): string {
  const pinned = process.env.LEDGER_TODAY;
  if (pinned) return pinned;
  return new Date().toISOString().slice(0, 10);
}
