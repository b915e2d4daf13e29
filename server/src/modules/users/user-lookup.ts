import type { Actor } from '../../platform/access/actor.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { EventMap } from '../../platform/events/event-map.js';
import { paginate, type pageWindow } from '../../platform/http/pagination.js';
import type { ProfileRow, ProfilesRepository } from './profiles.repository.js';
import { toProfileDto } from './user.mapper.js';
import { seesEveryAccount } from './users.policy.js';

/** A user id in a path, or `me` for the caller. */
export type UserIdOrMe = string;

type UserEvent = { [K in keyof EventMap]: K extends `user.${string}` ? K : never }[keyof EventMap];

/** Records one of this area's events: every one is about one account. */
export function recordUserEvent<K extends UserEvent>(
  events: EventBus,
  actor: Actor,
  type: K,
  userId: string,
  data: EventMap[K],
): Promise<void> {
  return events.record(actor, type, { subject: { resource: 'user', id: userId }, data });
}

/** `me` is the caller, who must be signed in for it. */
export function resolveId(idOrMe: UserIdOrMe, actor: Actor): string {
  if (idOrMe !== 'me') return idOrMe;
  if (actor.kind !== 'user') throw new AppError('UNAUTHENTICATED', 'Log in to use "me"');
  return actor.id;
}

/** The profile as this caller may see it; one they may not see is 404, as if it did not exist. */
export async function visibleProfile(
  profiles: Pick<ProfilesRepository, 'findOne'>,
  actor: Actor,
  id: string,
): Promise<ProfileRow> {
  const row = await profiles.findOne({ id }, actor.id, seesEveryAccount(actor));
  if (!row) throw notFound('User');
  return row;
}

/** A page of profiles as this caller sees them. */
export function profilePage(actor: Actor, rows: ProfileRow[], total: number, window: ReturnType<typeof pageWindow>) {
  return { users: rows.map((row) => toProfileDto(row, actor)), pagination: paginate(window, total) };
}
