import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SessionUser } from '@riff/contract';

/** A socket's entry lives this long unless its instance refreshes it (every heartbeat): a dead instance's entries lapse. */
export const PRESENCE_TTL_MS = 90_000;

/** Who is subscribed to a session after a socket entered or left it. */
export interface PresenceChange {
  /** Each user once (sorted by username, then id: the same order on every instance). */
  participants: SessionUser[];
  /** The user entered with their first socket / left with their last one. */
  joined?: SessionUser;
  left?: SessionUser;
  /** Goes up with every change of the session's presence: a later change has a higher one. */
  version: number;
}

/** One subscribed socket in one session. */
export interface PresenceEntry {
  sessionId: string;
  connectionId: string;
  user: SessionUser;
}

/**
 * Which users have a socket subscribed to each session: in Redis with REDIS_URL (every instance's
 * sockets), in this process's memory otherwise.
 */
export interface PresenceStore {
  enter(entry: PresenceEntry): Promise<PresenceChange>;
  leave(entry: PresenceEntry): Promise<PresenceChange>;
  /** Keeps this instance's entries from lapsing. */
  refresh(entries: PresenceEntry[]): Promise<void>;
  close(): Promise<void>;
}

const byName = (a: SessionUser, b: SessionUser) =>
  a.username < b.username ? -1 : a.username > b.username ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The users of these entries, each once; `user` joined or left when it is the only entry of theirs (enter) or has none left (leave). */
function change(users: SessionUser[], user: SessionUser, kind: 'enter' | 'leave', version: number): PresenceChange {
  const unique = new Map<string, SessionUser>();
  for (const present of users) if (!unique.has(present.id)) unique.set(present.id, present);
  const own = users.filter((present) => present.id === user.id).length;
  const participants = [...unique.values()].sort(byName);
  if (kind === 'enter') return { participants, version, ...(own === 1 ? { joined: user } : {}) };
  return { participants, version, ...(own === 0 ? { left: user } : {}) };
}

function memoryPresence(): PresenceStore {
  const sessions = new Map<string, { version: number; sockets: Map<string, SessionUser> }>();
  return {
    async enter({ sessionId, connectionId, user }) {
      const session = sessions.get(sessionId) ?? { version: 0, sockets: new Map<string, SessionUser>() };
      sessions.set(sessionId, session);
      session.sockets.set(connectionId, user);
      session.version += 1;
      return change([...session.sockets.values()], user, 'enter', session.version);
    },
    async leave({ sessionId, connectionId, user }) {
      const session = sessions.get(sessionId);
      if (!session) return change([], user, 'leave', 0);
      session.sockets.delete(connectionId);
      session.version += 1;
      if (session.sockets.size === 0) sessions.delete(sessionId);
      return change([...session.sockets.values()], user, 'leave', session.version);
    },
    refresh: async () => undefined,
    close: async () => undefined,
  };
}

const membersKey = (sessionId: string) => `riff:live:presence:${sessionId}`;
const versionKey = (sessionId: string) => `riff:live:presence:${sessionId}:version`;
const member = ({ connectionId, user }: PresenceEntry) => JSON.stringify([connectionId, user.id, user.username]);

function usersOf(members: unknown): SessionUser[] {
  if (!Array.isArray(members)) return [];
  const users: SessionUser[] = [];
  for (const text of members) {
    try {
      const [, id, username] = JSON.parse(String(text)) as [string, string, string];
      if (typeof id === 'string' && typeof username === 'string') users.push({ id, username });
    } catch {
      // not ours: skipped
    }
  }
  return users;
}

/**
 * A sorted set per session: each subscribed socket with the time its entry lapses; every change
 * drops lapsed entries, reads the set and counts a version, in one MULTI (so the version orders
 * what was read).
 */
function redisPresence(url: string, logger: Logger): PresenceStore {
  const client = (async () => {
    // ioredis loads only when REDIS_URL is set
    const { Redis } = await import('ioredis');
    const redis: Redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1_000,
      commandTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    // the broadcaster logs the outage; a presence change during one is not announced
    redis.on('error', (error) => logger.debug({ err: error }, 'presence: Redis error'));
    return redis;
  })();
  client.catch((error: unknown) => logger.error({ err: error }, 'presence: Redis client failed to start'));

  async function run(entry: PresenceEntry, kind: 'enter' | 'leave'): Promise<PresenceChange> {
    const redis = await client;
    const now = Date.now();
    const key = membersKey(entry.sessionId);
    const multi = redis.multi();
    if (kind === 'enter') multi.zadd(key, now + PRESENCE_TTL_MS, member(entry));
    else multi.zrem(key, member(entry));
    const results = await multi
      .zremrangebyscore(key, '-inf', now)
      .zrange(key, 0, -1)
      .incr(versionKey(entry.sessionId))
      .pexpire(key, PRESENCE_TTL_MS)
      .pexpire(versionKey(entry.sessionId), PRESENCE_TTL_MS)
      .exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('presence: transaction discarded');
    return change(usersOf(results[2]?.[1]), entry.user, kind, Number(results[3]?.[1]));
  }

  return {
    enter: (entry) => run(entry, 'enter'),
    leave: (entry) => run(entry, 'leave'),
    async refresh(entries) {
      if (entries.length === 0) return;
      const redis = await client;
      const until = Date.now() + PRESENCE_TTL_MS;
      const multi = redis.multi();
      for (const entry of entries) {
        multi.zadd(membersKey(entry.sessionId), 'XX', until, member(entry));
        multi.pexpire(membersKey(entry.sessionId), PRESENCE_TTL_MS);
        multi.pexpire(versionKey(entry.sessionId), PRESENCE_TTL_MS);
      }
      await multi.exec();
    },
    async close() {
      const redis = await client.catch(() => undefined);
      if (!redis) return;
      await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}

export function createPresenceStore(options: { redisUrl?: string; logger: Logger }): PresenceStore {
  return options.redisUrl ? redisPresence(options.redisUrl, options.logger) : memoryPresence();
}
