import type { ContentAction, ModeratedContentType } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { conflict, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { StaffLog } from '../admin/staff-log.js';
import { moderateContent } from './moderation-actions.js';
import { describeTarget, type ModerationTargetPorts } from './moderation-targets.js';
import { assertMayActOn } from '../../platform/access/staff-limits.js';

export interface ContentModerationDeps {
  scope: DbScope;
  events: EventBus;
  staffLog: StaffLog;
  targets: ModerationTargetPorts;
}

/** Staff hide, restore and remove content without a report. */
export class ContentModerationService {
  constructor(private readonly deps: ContentModerationDeps) {}

  act(actor: UserActor, type: ModeratedContentType, id: string, action: ContentAction, note: string) {
    const port = this.deps.targets.content[type];
    if (!port) throw notFound('Content');
    return this.deps.scope.transaction(async () => {
      const described = await describeTarget(this.deps.targets, { type, id });
      if (!described) throw notFound('Content');
      assertMayActOn(actor, described.owner);
      // a ban hides all of the account's content until it is lifted (an admin's decision): restoring
      // one item would show it while its owner is banned
      if (action === 'restore' && described.ownerBanned) {
        throw conflict('Its owner is banned: their content stays hidden until the ban is lifted');
      }
      return moderateContent(this.deps, actor, port, { type, id }, { action, note, logAction: `content.${action}` });
    });
  }
}
