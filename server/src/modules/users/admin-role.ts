import './users.events.js';
import { systemActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { UsersRepository } from './users.repository.js';

export interface AdminRoleDeps {
  scope: DbScope;
  events: EventBus;
  users: UsersRepository;
}

/** The command line's user agent in the audit log, where a request's would be. */
const CLI_ORIGIN = { ip: null, userAgent: 'riff-cli', requestId: null };

/**
 * Grants (or takes back) admin rights to the live account with this email, as the service
 * itself: `npm run make-admin`, and tests that need an admin. Undefined when there is no such
 * account.
 */
export async function setAdminRole(
  { scope, events, users }: AdminRoleDeps,
  email: string,
  admin: boolean,
): Promise<{ id: string; username: string } | undefined> {
  return scope.transaction(async () => {
    const user = await users.setAdmin(email, admin);
    if (!user) return undefined;
    await events.record(systemActor(CLI_ORIGIN), admin ? 'user.admin_granted' : 'user.admin_revoked', {
      subject: { resource: 'user', id: user.id },
      data: { by: 'cli' },
      userId: user.id,
    });
    return user;
  });
}
