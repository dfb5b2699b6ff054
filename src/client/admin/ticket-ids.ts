/** The most tickets one page prints (the board's page holds 25 orders). */
const MAX_TICKETS = 100;

/** The order numbers of `?ids=1,2,3`, each once, in the order given. */
export function ticketIds(param: string | null): number[] {
  const ids = (param ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^\d{1,12}$/.test(s))
    .map(Number)
    .filter((n) => n > 0);
  return [...new Set(ids)].slice(0, MAX_TICKETS);
}
