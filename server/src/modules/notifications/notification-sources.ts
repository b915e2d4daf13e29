import type { NotificationChannels, NotificationSubjectType, NotificationType, Profile } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';

/**
 * What the notifications area reads of other areas, each through that area's own port (built in
 * modules/index.ts): whom an event concerns and what to call it when it happens, and, when a
 * notification is shown, whether its reader may still see what it is about.
 */
export interface NotificationSources {
  /** A live track's owner and title. */
  track(id: string): Promise<{ ownerId: string; title: string } | undefined>;
  /** A comment's author (null once deleted) and words. */
  comment(id: string): Promise<{ authorId: string | null; content: string } | undefined>;
  playlist(id: string): Promise<{ title: string } | undefined>;
  product(id: string): Promise<{ title: string } | undefined>;
  /** A live group's name, owner, and who decides its join requests (the owner and its admins). */
  group(id: string): Promise<{ name: string; ownerId: string; adminIds: string[] } | undefined>;
  /** A course's title and instructor, whatever its status. */
  course(id: string): Promise<{ title: string; instructorId: string } | undefined>;
  /** The buyer of an order (null once their account is deleted). */
  orderBuyer(id: string): Promise<string | null | undefined>;
  /** A live account's username. */
  name(userId: string): Promise<string | undefined>;
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /** The profiles of these users as the reader sees them; missing for accounts gone or deactivated. */
  profiles(ids: readonly string[], reader: UserActor): Promise<Map<string, Profile>>;
  /** Which of these subjects the reader may see now (as `type:id`). */
  visibleSubjects(
    reader: UserActor,
    subjects: readonly { type: NotificationSubjectType; id: string }[],
  ): Promise<Set<string>>;
}

/** The recipient's choice for a type (their preferences); undefined for an account that is gone. */
export type NotificationChannelsOf = (
  userId: string,
  type: NotificationType,
) => Promise<NotificationChannels | undefined>;

/** The recipients' choices for a type, for many at once (an announcement's batch): absent for accounts gone. */
export type NotificationChannelsOfEach = (
  userIds: readonly string[],
  type: NotificationType,
) => Promise<Map<string, NotificationChannels>>;
