// When a paid order should leave the shop: docs/domain.md says "usually printed and shipped within 1 week",
// i.e. five working days after payment, counted in the shop's own time zone (Wisconsin). The shipping issue
// refines this with the print queue and public holidays.

export const SHOP_TIME_ZONE = 'America/Chicago';
export const LEAD_WORKING_DAYS = 5;

/** The calendar date (YYYY-MM-DD) of an instant in the shop's time zone. */
export function shopDate(at: Date, timeZone = SHOP_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** `days` working days (Monday to Friday) after the shop's date of `paidAt`, as YYYY-MM-DD. */
export function shipByDate(paidAt: Date, days = LEAD_WORKING_DAYS, timeZone = SHOP_TIME_ZONE): string {
  const d = new Date(`${shopDate(paidAt, timeZone)}T12:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}
