/** UTC days as 'YYYY-MM-DD' strings: the roll-ups' unit of time. */

const DAY_MS = 86_400_000;

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

const epochOf = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

export const addDays = (day: string, days: number): string => dayOf(new Date(epochOf(day) + days * DAY_MS));

/** Whole days from `from` to `to` (positive when `to` is later). */
export const daysBetween = (from: string, to: string): number => Math.round((epochOf(to) - epochOf(from)) / DAY_MS);

/** Monday of the ISO week of `day`. */
export function weekStart(day: string): string {
  const weekday = new Date(epochOf(day)).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;
