import type { GearOwnersQuery, GearPopularQuery, GearSearchQuery, PopularGear } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { GearDiscoveryRepository } from './gear-discovery.repository.js';
import type { GearReads } from './gear-reads.js';

export interface GearDiscoveryServiceDeps {
  discovery: GearDiscoveryRepository;
  reads: GearReads;
  /** The users area's read port: the caller's blocks, and profiles as the caller sees them. */
  people: Pick<PeopleReader, 'blockedEitherWayWith' | 'profiles' | 'findAccount'>;
}

/**
 * Search, the most owned models and who owns one: public items of active accounts, never of a user
 * who blocked the caller or whom the caller blocked.
 */
export class GearDiscoveryService {
  constructor(private readonly deps: GearDiscoveryServiceDeps) {}

  async search(actor: Actor, query: GearSearchQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.discovery.search(actor, query.q, query.category, window);
    return { gear: await this.deps.reads.dtos(rows), pagination: paginate(window, total) };
  }

  /**
   * The counts are kept per model (public items of counted accounts); the caller's blocked users'
   * part is taken off here. Each of them lowers a model by one at most, so the first `limit` models
   * after that are among the first `limit + (models they count for)` before it.
   */
  async popular(actor: Actor, query: GearPopularQuery): Promise<{ items: PopularGear[] }> {
    const blocked = actor.kind === 'user' ? await this.deps.people.blockedEitherWayWith(actor.id) : [];
    const lowered = new Map<string, number>();
    for (const key of await this.deps.discovery.modelsCountedFor(blocked))
      lowered.set(key, (lowered.get(key) ?? 0) + 1);
    const candidates = await this.deps.discovery.topModels(query.category, query.limit + lowered.size);
    const items = candidates
      .map((model) => ({ ...model, owners: model.owners - (lowered.get(model.model_key) ?? 0) }))
      .filter((model) => model.owners > 0)
      .sort((a, b) => b.owners - a.owners || (a.model_key < b.model_key ? -1 : a.model_key > b.model_key ? 1 : 0))
      .slice(0, query.limit);
    return {
      items: items.map(({ brand, model, category, owners }) => ({ brand, model, category, owners })),
    };
  }

  /**
   * The total is the model's kept count of owners (as popular shows it) less the caller's blocked
   * users among them, so a model owned by thousands costs what one owned by two does.
   */
  async owners(actor: Actor, query: GearOwnersQuery) {
    const window = pageWindow(query.page, query.limit);
    const { discovery } = this.deps;
    const key = await discovery.modelKey(query.brand, query.model);
    const blocked = actor.kind === 'user' ? await this.deps.people.blockedEitherWayWith(actor.id) : [];
    const [owners, hidden] = await Promise.all([discovery.ownerCount(key), discovery.countedOwnersAmong(key, blocked)]);
    const total = Math.max(0, owners - hidden);
    const ids = window.offset < total ? await discovery.owners(actor, key, window) : [];
    const profiles = await this.deps.people.profiles(ids, actor);
    return {
      users: ids.flatMap((id) => {
        const profile = profiles.get(id);
        return profile ? [profile] : [];
      }),
      pagination: paginate(window, total),
    };
  }

  /**
   * After a change of the account's standing: its items count while it may act (not deactivated,
   * banned or suspended), read from the account itself (an unbanned account may still be suspended).
   */
  async standingChanged(userId: string, now: Date): Promise<void> {
    const row = await this.deps.people.findAccount(userId);
    const suspended = row?.suspended_at != null && (row.suspended_until === null || row.suspended_until > now);
    const acting = row !== undefined && row.is_active && !row.is_banned && row.is_verified && !suspended;
    await this.deps.discovery.setCounted(userId, acting);
  }
}
