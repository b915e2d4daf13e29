import type { LiveServerMessage } from '@riff/contract';
import type { DbScope } from '../db/transactions.js';
import type { Broadcaster } from './broadcaster.js';

/** A message for every live socket of one user. */
export interface UserPushMessage {
  userId: string;
  message: LiveServerMessage;
}

/**
 * Messages for a user's open live sockets, wherever they are connected: published on the
 * broadcaster's `user-push` channel (Redis pub/sub between instances), heard by the live socket
 * endpoint, which sends each to that user's connections. Nothing is kept: a user without an open
 * socket reads it later where it was stored (the notification inbox).
 */
export interface UserPush {
  /** Sends once the current unit of work commits (at once outside one). */
  push(userId: string, message: LiveServerMessage): void;
  listen(listener: (push: UserPushMessage) => void): void;
}

const isPush = (value: unknown): value is UserPushMessage => {
  const candidate = value as Partial<UserPushMessage> | null;
  return (
    typeof candidate?.userId === 'string' &&
    typeof candidate.message === 'object' &&
    candidate.message !== null &&
    typeof (candidate.message as { type?: unknown }).type === 'string'
  );
};

export function createUserPush(scope: DbScope, broadcaster: Broadcaster): UserPush {
  const channel = broadcaster.channel('user-push', isPush);
  return {
    push(userId, message) {
      scope.afterCommit(() => channel.publish({ userId, message }));
    },
    listen: (listener) => channel.listen(listener),
  };
}
