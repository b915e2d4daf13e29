import './users.events.js';
import { systemActor } from '../../platform/access/actor.js';
import type { Platform } from '../../platform/platform.js';
import { UsersRepository } from './users.repository.js';

/** The command line's user agent in the audit log, where a request's would be. */
const CLI_ORIGIN = { ip: null, userAgent: 'riff-cli', requestId: null };

/**
 * Grants (or takes back) admin rights to the live account with this email, as the service
 * itself: `npm run make-admin`, and tests that need an admin. Undefined when there is no such
 * account.
 */
export async function setAdminRole(
  platform: Platform,
  email: string,
  admin: boolean,
): Promise<{ id: string; username: string } | undefined> {
  const users = new UsersRepository(platform.scope);
  return platform.scope.transaction(async () => {
    const user = await users.setAdmin(email, admin);
    if (!user) return undefined;
    await platform.events.record(systemActor(CLI_ORIGIN), admin ? 'user.admin_granted' : 'user.admin_revoked', {
      subject: { resource: 'user', id: user.id },
      data: { by: 'cli' },
      userId: user.id,
    });
    return user;
  });
}
