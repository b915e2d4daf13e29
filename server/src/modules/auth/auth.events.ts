// The auth area's domain events: each becomes an audit entry (resource = its subject).
import '../users/users.events.js';
import '../sanctions/sanctions.events.js';
import type { EventHandler, EventSubject } from '../../platform/events/event-bus.js';

type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'auth.register': Nothing;
    'auth.login': Nothing;
    'auth.login_failed': { reason: 'invalid_credentials' };
    'auth.logout': Nothing;
    'auth.refresh_reuse_detected': Nothing;
    'auth.verification_resent': Nothing;
    'auth.email_verified': Nothing;
    'auth.password_reset_requested': Nothing;
    'auth.password_reset': Nothing;
    'auth.password_change_failed': Nothing;
    'auth.password_changed': { kept_current_session: boolean };
    'auth.2fa_enabled': Nothing;
    'auth.2fa_disabled': Nothing;
    'auth.2fa_login_failed': Nothing;
  }
}

/** A login, or a family of refresh tokens (one login's rotations). */
export const onSession = (familyId: string | null = null): EventSubject => ({ resource: 'session', id: familyId });
export const onUser = (userId: string): EventSubject => ({ resource: 'user', id: userId });

/**
 * A deactivated, suspended or banned account is signed out (its refresh tokens revoked) in the
 * transaction of that change, as part of the same fact.
 */
export function signOutDeactivated(
  signOut: (userId: string) => Promise<void>,
): EventHandler<'user.deactivated' | 'user.suspended' | 'user.banned'> {
  return {
    name: 'auth.sign-out-deactivated',
    types: ['user.deactivated', 'user.suspended', 'user.banned'],
    delivery: 'in-transaction',
    handle: async (event) => {
      if (event.subject.id) await signOut(event.subject.id);
    },
  };
}
