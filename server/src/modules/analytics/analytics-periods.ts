import type { AnalyticsInterval, AnalyticsPeriod } from '@riff/contract';
import { WINDOW_DAYS, type Window } from './analytics.tables.js';
import { addDays, monthStart, weekStart } from './analytics-days.js';

/** A period as days: its first and last UTC day, the window that counts its listeners, the one before it. */
export interface PeriodRange {
  from: string;
  to: string;
  window: Window;
  previous: { from: string; to: string } | null;
}

/**
 * "Nd" is the N UTC days ending today, today included; `all` runs from the first day with activity
 * (today when there is none) and has no previous period. The previous period is the N days before.
 */
export function periodRange(period: AnalyticsPeriod, today: string, firstDay: string | null): PeriodRange {
  if (period === 'all') {
    const from = firstDay !== null && firstDay < today ? firstDay : today;
    return { from, to: today, window: 'all', previous: null };
  }
  const days = WINDOW_DAYS[period];
  const from = addDays(today, 1 - days);
  return { from, to: today, window: period, previous: { from: addDays(from, -days), to: addDays(from, -1) } };
}

export interface Bucket {
  start: string;
  end: string;
}

/** The series' intervals: days, ISO weeks (Monday to Sunday) or calendar months, clipped to the period. */
export function buckets(from: string, to: string, interval: AnalyticsInterval): Bucket[] {
  const result: Bucket[] = [];
  for (let start = from; start <= to; ) {
    const last =
      interval === 'day'
        ? start
        : interval === 'week'
          ? addDays(weekStart(start), 6)
          : addDays(nextMonth(monthStart(start)), -1);
    const end = last < to ? last : to;
    result.push({ start, end });
    start = addDays(end, 1);
  }
  return result;
}

function nextMonth(first: string): string {
  const [year, month] = first.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}
