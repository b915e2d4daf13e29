import type { DashboardPeriod, DashboardQuery, DashboardResponse, DashboardStats } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import { toFollowerActivity, toLibraryItem, toOwnActivity } from './dashboard.mapper.js';
import type { DashboardRepository, WindowCounts } from './dashboard.repository.js';

const DAY_MS = 86_400_000;
const PERIOD_DAYS: Record<Exclude<DashboardPeriod, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** "+12%", "-3%", "0%" (also 0 → 0), or "new" when there was nothing before. */
export function changeBetween(previous: number, current: number): string {
  if (previous === 0) return current === 0 ? '0%' : 'new';
  const percent = Math.round(((current - previous) / previous) * 100);
  return percent > 0 ? `+${percent}%` : `${percent}%`;
}

function withChanges(
  period: DashboardPeriod,
  counts: WindowCounts,
  change: (name: keyof WindowCounts) => string,
): DashboardStats {
  return {
    period,
    ...counts,
    tracks_played_change: change('tracks_played'),
    favorites_change: change('favorites'),
    messages_sent_change: change('messages_sent'),
    active_friends_change: change('active_friends'),
  };
}

export interface DashboardServiceDeps {
  dashboard: DashboardRepository;
  clock: Clock;
}

/** The caller's dashboard: counts against the period before, recent activity, and the newest of their library. */
export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  async forCaller(actor: UserActor, query: DashboardQuery): Promise<DashboardResponse> {
    return {
      stats: await this.stats(actor.id, query.stats_period),
      recent_activity: await this.recentActivity(actor.id, query.activity_limit),
      library_preview: await this.libraryPreview(actor.id, query.library_limit),
    };
  }

  private async stats(userId: string, period: DashboardPeriod): Promise<DashboardStats> {
    const now = this.deps.clock.now().getTime();
    const until = new Date(now + 1);
    if (period === 'all') {
      const counts = await this.deps.dashboard.counts(userId, { from: new Date(0), until });
      return withChanges(period, counts, () => '0%');
    }
    const length = PERIOD_DAYS[period] * DAY_MS;
    const from = new Date(now - length);
    const current = await this.deps.dashboard.counts(userId, { from, until });
    const previous = await this.deps.dashboard.counts(userId, { from: new Date(from.getTime() - length), until: from });
    return withChanges(period, current, (name) => changeBetween(previous[name], current[name]));
  }

  private async recentActivity(userId: string, limit: number) {
    const own = (await this.deps.dashboard.ownActivity(userId, limit)).map(toOwnActivity);
    const followers = (await this.deps.dashboard.newFollowers(userId, limit)).map(toFollowerActivity);
    return [...own, ...followers].sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, limit);
  }

  private async libraryPreview(userId: string, limit: number) {
    const items = (await this.deps.dashboard.library(userId, limit)).map(toLibraryItem);
    const total = await this.deps.dashboard.libraryCount(userId);
    return { items, total_count: total, has_more: total > items.length };
  }
}
