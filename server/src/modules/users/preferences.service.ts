import type { Preferences, UpdatePreferencesRequest } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { mergePreferences, mergeRecord } from './preferences.defaults.js';
import type { PreferencesRepository } from './preferences.repository.js';
import { recordUserEvent } from './user-lookup.js';

export interface PreferencesServiceDeps {
  scope: DbScope;
  preferences: PreferencesRepository;
  events: EventBus;
  clock: Clock;
}

/** A user's preferences (notifications, privacy, playback) and their opt-out of sale. */
export class PreferencesService {
  constructor(private readonly deps: PreferencesServiceDeps) {}

  async optOutOfSale(actor: UserActor) {
    const at = await this.deps.scope.transaction(async () => {
      const when = await this.deps.preferences.optOutOfSale(actor.id, this.deps.clock.now());
      await recordUserEvent(this.deps.events, actor, 'user.privacy_opt_out', actor.id, {});
      return when;
    });
    return { do_not_sell: true as const, opted_out_at: at.toISOString() };
  }

  /** The stored preferences over the defaults. */
  async of(userId: string): Promise<Preferences> {
    const stored = await this.deps.preferences.find(userId);
    return mergePreferences(stored?.settings ?? {}, Boolean(stored?.do_not_sell_at));
  }

  /** The preferences of each of these users, read in one statement. */
  async ofEach(userIds: readonly string[]): Promise<Map<string, Preferences>> {
    const stored = await this.deps.preferences.findMany(userIds);
    return new Map(
      userIds.map((id) => {
        const row = stored.get(id);
        return [id, mergePreferences(row?.settings ?? {}, Boolean(row?.do_not_sell_at))];
      }),
    );
  }

  async preferences(actor: UserActor) {
    return { preferences: await this.of(actor.id) };
  }

  async updatePreferences(actor: UserActor, changes: UpdatePreferencesRequest) {
    const current = await this.of(actor.id);
    const { do_not_sell: _kept, ...privacy } = { ...current.privacy, ...changes.privacy };
    const notifications: Record<string, unknown> = { ...current.notifications };
    // a notification type's channels are merged too: { like: { email: true } } keeps like.in_app
    for (const [key, value] of Object.entries(changes.notifications ?? {})) {
      const kept = notifications[key];
      notifications[key] =
        typeof value === 'object' && value !== null && typeof kept === 'object' && kept !== null
          ? mergeRecord(kept as Record<string, unknown>, value)
          : value;
    }
    const settings = {
      notifications,
      privacy,
      playback: { ...current.playback, ...changes.playback },
    };
    await this.deps.scope.transaction(async () => {
      await this.deps.preferences.save(actor.id, settings);
      await recordUserEvent(this.deps.events, actor, 'user.preferences_updated', actor.id, {
        sections: Object.keys(changes).sort(),
      });
    });
    return { preferences: await this.of(actor.id) };
  }
}
