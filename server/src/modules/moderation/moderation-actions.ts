import type { ContentAction, ModeratedContentType, ModerationStatus } from '@riff/contract';
import { onStaffDecision, type UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { StaffLog } from '../admin/staff-log.js';

const STATUS_OF: Record<ContentAction, ModerationStatus> = { hide: 'hidden', restore: 'visible', remove: 'removed' };

/**
 * Sets a content item's state on staff's word and says so: the staff log's entry and the event
 * that tells the owner (always, whatever their preferences). Runs in the caller's transaction.
 */
export async function moderateContent(
  deps: { events: EventBus; staffLog: StaffLog },
  actor: UserActor,
  port: ModeratedContent,
  target: { type: ModeratedContentType; id: string },
  change: { action: ContentAction; note: string; logAction: string },
) {
  const status = STATUS_OF[change.action];
  const before = await port.setStatus(target.id, status, change.note);
  if (!before) throw notFound('Content');
  const reason = status === 'visible' ? null : change.note;
  await deps.staffLog.record(actor, {
    action: change.logAction,
    target_type: target.type,
    target_id: target.id,
    reason: change.note,
    before: { moderation_status: before.moderation_status, moderation_reason: before.moderation_reason },
    after: { moderation_status: status, moderation_reason: reason },
  });
  if (before.moderation_status !== status) {
    const title = before.snapshot['title'] ?? before.snapshot['text'] ?? null;
    await deps.events.record(onStaffDecision(actor), 'content.moderated', {
      subject: { resource: target.type, id: target.id },
      userId: before.owner_id,
      data: {
        target_type: target.type,
        status,
        previous: before.moderation_status,
        reason,
        title: typeof title === 'string' ? title : null,
      },
    });
  }
  return {
    content: { target_type: target.type, target_id: target.id, moderation_status: status, moderation_reason: reason },
  };
}
