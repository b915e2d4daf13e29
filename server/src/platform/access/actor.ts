import type { ApiKeyScope, UserRole } from '@riff/contract';
import type { KeyRef } from '../auth/token-signer.js';

/**
 * How a signed-in caller proved who they are. `playback_token`: a token the media area wrote into
 * a private track's playlists, good for that track's HLS alone (the area checks it itself).
 * `app_password`: a password the user made for a Subsonic app, good at /rest/ alone.
 */
export type AuthMethod = 'bearer' | 'stream_token' | 'playback_token' | 'api_key' | 'webhook_key' | 'app_password';

/** Where a request came from: recorded with audit entries and events. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/**
 * The signed-in user's account row, as an Actor carries it. The platform reads only these fields; the
 * area that owns the users table widens this to its whole row by augmenting the interface
 * (modules/users/users.tables.ts), so services see every column.
 */
export interface AccountUser {
  id: string;
  is_admin: boolean;
  /** moderator or admin makes a user staff; an admin's is_admin is true as well. */
  role: UserRole;
  token_version: number;
}

/** Staff act on others' reports, content and accounts: moderators and admins. */
export const isStaffUser = (user: Pick<AccountUser, 'is_admin' | 'role'>): boolean =>
  user.is_admin || user.role === 'moderator' || user.role === 'admin';

interface ActorBase {
  origin: RequestOrigin;
}

/** A signed-in user. */
export interface UserActor extends ActorBase {
  kind: 'user';
  id: string;
  user: AccountUser;
  isAdmin: boolean;
  /** A moderator or an admin: sees moderated content and works the moderation queue. */
  isStaff: boolean;
  via: AuthMethod;
  /** What an API or webhook key may do; undefined for a user's own tokens (everything they may do). */
  scopes?: readonly string[];
  /** The key the caller came with, or that their token was minted from; undefined for a user's own tokens. */
  key?: KeyRef;
}

/** Nobody signed in: public and optional routes. */
export interface AnonymousActor extends ActorBase {
  kind: 'anonymous';
  id: null;
  user: undefined;
  isAdmin: false;
  isStaff: false;
}

/** The service itself: jobs, event handlers and command-line scripts. */
export interface SystemActor extends ActorBase {
  kind: 'system';
  id: null;
  user: undefined;
  isAdmin: true;
  isStaff: true;
}

/**
 * Who is asking, built once per request by the authentication middleware from the route's
 * metadata and handed to every service method as its first argument.
 */
export type Actor = UserActor | AnonymousActor | SystemActor;

const NO_ORIGIN: RequestOrigin = { ip: null, userAgent: null, requestId: null };

export function userActor(
  user: AccountUser,
  via: AuthMethod,
  origin: RequestOrigin = NO_ORIGIN,
  scopes?: readonly string[],
  key?: KeyRef,
): UserActor {
  return {
    kind: 'user',
    id: user.id,
    user,
    isAdmin: user.is_admin,
    isStaff: isStaffUser(user),
    via,
    origin,
    ...(scopes ? { scopes } : {}),
    ...(key ? { key } : {}),
  };
}

/** Whether a key-held caller's scopes allow `scope` (admin allows everything); a user's own tokens allow all. */
export function scopeAllows(actor: UserActor, scope: Exclude<ApiKeyScope, 'admin'>): boolean {
  return actor.scopes === undefined || actor.scopes.includes(scope) || actor.scopes.includes('admin');
}

export function anonymousActor(origin: RequestOrigin = NO_ORIGIN): AnonymousActor {
  return { kind: 'anonymous', id: null, user: undefined, isAdmin: false, isStaff: false, origin };
}

export function systemActor(origin: RequestOrigin = NO_ORIGIN): SystemActor {
  return { kind: 'system', id: null, user: undefined, isAdmin: true, isStaff: true, origin };
}

/**
 * The service acting on a staff member's decision about someone: an event recorded so belongs to
 * the user it concerns (their audit log, their notification, their webhooks), which must never name
 * the staff member or carry their address; only the request id ties it to the staff log's entry.
 */
export function onStaffDecision(staff: Actor): SystemActor {
  return systemActor({ ip: null, userAgent: null, requestId: staff.origin.requestId });
}

/** The same caller acting as they now are (after a change to their own account row). */
export function withUser(actor: UserActor, user: AccountUser): UserActor {
  return { ...actor, user, isAdmin: user.is_admin, isStaff: isStaffUser(user) };
}
