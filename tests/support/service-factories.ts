import { anonymousActor, userActor, type UserActor } from '../../server/src/platform/access/actor.js';
import { newIdentity } from './accounts.js';
import { tokenFromMail, waitForMail } from './mail.js';
import type { ServiceSuite } from './services.js';

/** A user of the service tier: the Actor services take, and how the account signs in. */
export type ServiceUser = UserActor & { email: string; username: string; password: string };

/**
 * A registered and verified account, made through the auth service as registration makes it (the
 * password hashed, the verification mail sent by the queue and its link followed), returned as the
 * Actor of a signed-in user.
 */
export async function serviceUser(
  suite: ServiceSuite,
  overrides: { email?: string; username?: string } = {},
): Promise<ServiceUser> {
  const identity = { ...newIdentity(), ...overrides };
  const { auth } = suite.areas.auth.services;
  const { user } = await auth.register(anonymousActor(), identity);
  await suite.platform.jobs.runDue();
  const mail = await waitForMail(suite.outboxDir, identity.email, 'verify-email');
  await auth.verifyEmail(anonymousActor(), tokenFromMail(mail));
  const account = await suite.areas.users.activeUser!(user.id);
  if (!account) throw new Error(`the account ${identity.email} is not active after verification`);
  return { ...userActor(account, 'bearer'), ...identity };
}
