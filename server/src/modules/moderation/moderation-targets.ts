import type { ModeratedContentType, ModerationStatus, Profile, ReportTargetType } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { Target } from './moderation.repository.js';
import type { ActedOn } from '../../platform/access/staff-limits.js';

/** A reported user as staff judge them. */
export interface ReportedUser {
  isAdmin: boolean;
  isBanned: boolean;
  snapshot: Record<string, unknown>;
}

/**
 * What the moderation area asks the other areas about targets: each content area's side of
 * moderation, who may see a target, who a user is. Wired in modules/index.ts.
 */
export interface ModerationTargetPorts {
  /** Each content area's moderation port, by the content type it carries (areas not built yet are absent). */
  content: Partial<Record<ModeratedContentType, ModeratedContent>>;
  /** Whether the reader sees the target as its area shows it (a report of anything else is 404). */
  visibleTo(reader: UserActor, target: Target): Promise<boolean>;
  /** A user who still has an account (suspended or banned included); undefined for one erased or unknown. */
  user(id: string): Promise<ReportedUser | undefined>;
  /** Public profiles of the owners the queue shows. */
  profiles(ids: readonly string[]): Promise<Map<string, Profile>>;
}

/** A target as it is now: whose it is, what it says; undefined when it is gone. */
export interface DescribedTarget {
  owner: ActedOn | undefined;
  /** The owner (or the user) is banned: the ban hid all of their content until it is lifted. */
  ownerBanned: boolean;
  snapshot: Record<string, unknown>;
  /** The content's state (undefined for a user). */
  content?: { status: ModerationStatus; reason: string | null; title: string | null };
}

export const isContentType = (type: ReportTargetType): type is ModeratedContentType => type !== 'user';

/** Reads a target through the area that owns it. */
export async function describeTarget(
  ports: ModerationTargetPorts,
  target: Target,
): Promise<DescribedTarget | undefined> {
  if (!isContentType(target.type)) {
    const user = await ports.user(target.id);
    return (
      user && { owner: { id: target.id, isAdmin: user.isAdmin }, ownerBanned: user.isBanned, snapshot: user.snapshot }
    );
  }
  const item = await ports.content[target.type]?.find(target.id);
  if (!item) return undefined;
  const owner = item.owner_id ? await ports.user(item.owner_id) : undefined;
  const title = item.snapshot['title'] ?? item.snapshot['text'] ?? null;
  return {
    owner: item.owner_id && owner ? { id: item.owner_id, isAdmin: owner.isAdmin } : undefined,
    ownerBanned: owner?.isBanned ?? false,
    snapshot: item.snapshot,
    content: {
      status: item.moderation_status,
      reason: item.moderation_reason,
      title: typeof title === 'string' ? title : null,
    },
  };
}
