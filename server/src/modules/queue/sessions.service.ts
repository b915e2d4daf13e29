import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_PREFIX,
  CHAT_HISTORY_LIMIT,
  CHAT_TEXT_MAX,
  QUEUE_MAX_ITEMS,
  SESSION_TTL_HOURS,
  type CreateQueueSessionRequest,
  type UpdateQueueSessionRequest,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { fieldIssue, forbidden, limitReached, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { LiveEvent, LiveHub } from './live-hub.js';
import { toChatMessageDto, toSessionDto, toSessionItemDto, type Usernames } from './queue.mapper.js';
import { canEndSession, canRemoveSessionItem, canSteerSession } from './queue.policy.js';
import type { QueueService } from './queue.service.js';
import type { SessionRow, SessionsRepository } from './sessions.repository.js';

/** Live sessions one user may host at once. */
export const MAX_LIVE_SESSIONS_PER_HOST = 10;
const TTL_MS = SESSION_TTL_HOURS * 60 * 60 * 1000;

/** 32 random bytes: unguessable. Only its sha256 is stored; the lookup is by that hash. */
const newToken = () => randomBytes(32).toString('base64url');
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface SessionsServiceDeps {
  scope: DbScope;
  sessions: SessionsRepository;
  queue: QueueService;
  tracks: TrackReader;
  events: EventBus;
  clock: Clock;
  live: LiveHub;
  /** Whether either user blocks the other (the users area's read port). */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /** How these accounts are named, deleted ones included (the users area's read port). */
  names(ids: readonly string[]): Promise<Usernames>;
  publicBaseUrl: string;
}

const gone = () => notFound('Session');

/** Shared listening sessions: reached by token, steered by the host, joined by whoever holds the token. */
export class SessionsService {
  constructor(private readonly deps: SessionsServiceDeps) {}

  private get now() {
    return this.deps.clock.now();
  }

  private expiry(now: Date) {
    return new Date(now.getTime() + TTL_MS);
  }

  /** Tells every subscriber, on every instance, once the change has committed. */
  private announce(event: LiveEvent) {
    this.deps.scope.afterCommit(() => this.deps.live.publish(event));
  }

  private async live(token: string, lock = false): Promise<SessionRow> {
    const session = await this.deps.sessions.findLive(hashToken(token), this.now, lock);
    if (!session) throw gone();
    return session;
  }

  /** Whoever joins (adds, listens, chats) must not block the host nor be blocked by them: 403. */
  private async admit(actor: UserActor, session: SessionRow): Promise<void> {
    if (actor.id !== session.host_id && (await this.deps.blockedEitherWay(actor.id, session.host_id)))
      throw forbidden('You cannot join this session');
  }

  private async render(actor: Actor, session: SessionRow, token: string) {
    return (await this.viewOf(session)).render(actor, token);
  }

  /**
   * Reads what a session shows once; rendering it for a viewer needs no database. Two viewers with
   * the same viewerKey (and token) get the same rendering.
   */
  private async viewOf(session: SessionRow) {
    const items = await this.deps.sessions.items(session.id);
    const participants = await this.deps.sessions.participantsCount(session.id, session.host_id);
    const tracks = await this.deps.tracks.lookup(items.map((item) => item.track_id));
    const usernames = await this.deps.names([
      session.host_id,
      ...items.flatMap((item) => (item.added_by === null ? [] : [item.added_by])),
    ]);
    // the host's account row is there as long as the session is (deleting it deletes the session)
    const hostUsername = usernames.get(session.host_id)?.username;
    if (hostUsername === undefined) throw gone();
    return {
      render: (actor: Actor, token: string) =>
        toSessionDto({
          session,
          hostUsername,
          items,
          usernames,
          participants,
          tracks: tracks.visibleTo(actor),
          withheld: tracks.withheldFrom(actor),
          token,
          shareUrl: `${this.deps.publicBaseUrl}${API_PREFIX}/queue/session/${encodeURIComponent(token)}`,
        }),
      viewerKey: (actor: Actor) => tracks.viewerKey(actor),
    };
  }

  async create(actor: UserActor, body: CreateQueueSessionRequest) {
    const snapshot = await this.deps.queue.snapshot(actor);
    const token = newToken();
    const now = this.now;
    const session = await this.deps.scope.transaction(async () => {
      if ((await this.deps.sessions.countLiveOf(actor.id, now)) >= MAX_LIVE_SESSIONS_PER_HOST) {
        throw limitReached(`At most ${MAX_LIVE_SESSIONS_PER_HOST} live sessions per host: end one first`);
      }
      const row = await this.deps.sessions.insert({
        id: randomUUID(),
        token_hash: hashToken(token),
        host_id: actor.id,
        title: body.title ?? null,
        current_index: Math.min(snapshot.currentIndex, Math.max(0, snapshot.trackIds.length - 1)),
        position_seconds: snapshot.positionSeconds,
        is_playing: false,
        created_at: now,
        updated_at: now,
        expires_at: this.expiry(now),
      });
      await this.deps.sessions.insertItems(row.id, snapshot.trackIds, actor.id, now);
      await this.deps.sessions.join(row.id, actor.id, now);
      await this.deps.events.record(actor, 'queue_session.created', {
        subject: { resource: 'queue_session', id: row.id },
        data: { items: snapshot.trackIds.length },
      });
      return row;
    });
    return { session: await this.render(actor, session, token) };
  }

  async get(actor: Actor, token: string) {
    return { session: await this.render(actor, await this.live(token), token) };
  }

  async update(actor: UserActor, token: string, body: UpdateQueueSessionRequest) {
    const now = this.now;
    const session = await this.deps.scope.transaction(async () => {
      const session = await this.live(token, true);
      if (!canSteerSession(actor, session)) throw forbidden('Only the host steers the playback');
      const size = await this.deps.sessions.countItems(session.id);
      if (body.current_index !== undefined && body.current_index > Math.max(0, size - 1)) {
        throw validationFailed('current_index must name an item of the session', [
          fieldIssue('current_index', `must be between 0 and ${Math.max(0, size - 1)}`, String(body.current_index)),
        ]);
      }
      const row = await this.deps.sessions.touch(session.id, {
        ...body,
        updated_at: now,
        expires_at: this.expiry(now),
      });
      this.announce({
        kind: 'playback_changed',
        sessionId: row.id,
        data: {
          current_index: row.current_index,
          position_seconds: row.position_seconds,
          is_playing: row.is_playing,
          expires_at: row.expires_at.toISOString(),
        },
      });
      return { ...session, ...row };
    });
    return { session: await this.render(actor, session, token) };
  }

  async end(actor: UserActor, token: string) {
    await this.deps.scope.transaction(async () => {
      const session = await this.live(token, true);
      if (!canEndSession(actor, session)) throw forbidden('Only the host ends the session');
      await this.deps.sessions.remove(session.id);
      await this.deps.events.record(actor, 'queue_session.ended', {
        subject: { resource: 'queue_session', id: session.id },
        data: {},
        userId: session.host_id,
      });
      this.announce({ kind: 'ended', sessionId: session.id, data: { reason: 'ended' } });
    });
    return { message: 'The session has ended' };
  }

  async addItem(actor: UserActor, token: string, trackId: string) {
    await this.admit(actor, await this.live(token));
    await this.deps.tracks.assertVisible(actor, [trackId]);
    const now = this.now;
    const item = await this.deps.scope.transaction(async () => {
      const session = await this.live(token, true);
      const size = await this.deps.sessions.countItems(session.id);
      if (size >= QUEUE_MAX_ITEMS) throw limitReached(`A session holds at most ${QUEUE_MAX_ITEMS} items`);
      const [id] = await this.deps.sessions.insertItems(session.id, [trackId], actor.id, now, size);
      await this.deps.sessions.join(session.id, actor.id, now);
      await this.deps.sessions.touch(session.id, { updated_at: now, expires_at: this.expiry(now) });
      await this.deps.events.record(actor, 'queue_session.item_added', {
        subject: { resource: 'queue_session', id: session.id },
        data: { track_id: trackId },
      });
      this.announce({ kind: 'items_changed', sessionId: session.id });
      return (await this.deps.sessions.findItem(session.id, id!))!;
    });
    return {
      item: toSessionItemDto(
        item,
        await this.deps.tracks.visibleTracks(actor, [trackId]),
        new Map([[actor.id, actor.user]]),
      ),
    };
  }

  async removeItem(actor: UserActor, token: string, itemId: string) {
    const now = this.now;
    await this.deps.scope.transaction(async () => {
      const session = await this.live(token, true);
      const item = await this.deps.sessions.findItem(session.id, itemId);
      if (!item) throw notFound('Session item');
      if (!canRemoveSessionItem(actor, session, item))
        throw forbidden('Only the host or whoever added it removes an item');
      await this.deps.sessions.removeItem(session.id, item);
      const size = await this.deps.sessions.countItems(session.id);
      let { current_index: currentIndex, position_seconds: positionSeconds } = session;
      if (item.position < currentIndex) currentIndex -= 1;
      else if (item.position === currentIndex) positionSeconds = 0;
      currentIndex = Math.min(currentIndex, Math.max(0, size - 1));
      await this.deps.sessions.touch(session.id, {
        current_index: currentIndex,
        position_seconds: positionSeconds,
        updated_at: now,
        expires_at: this.expiry(now),
      });
      await this.deps.events.record(actor, 'queue_session.item_removed', {
        subject: { resource: 'queue_session', id: session.id },
        data: { track_id: item.track_id },
      });
      this.announce({ kind: 'items_changed', sessionId: session.id });
    });
    return { message: 'Removed from the session' };
  }

  /** A socket subscribes: the caller joins, and gets the session as they see it with the last chat messages. */
  async subscribe(actor: UserActor, token: string) {
    const session = await this.live(token);
    await this.admit(actor, session);
    await this.deps.sessions.join(session.id, actor.id, this.now);
    const chat = await this.deps.sessions.lastMessages(session.id, CHAT_HISTORY_LIMIT);
    const usernames = await this.deps.names(chat.flatMap((row) => (row.user_id === null ? [] : [row.user_id])));
    return {
      sessionId: session.id,
      session: await this.render(actor, session, token),
      chat: chat.map((row) => toChatMessageDto(row, usernames)),
    };
  }

  /** How many have joined the session (as its participants_count), or undefined once it is gone. */
  async participantsCount(sessionId: string): Promise<number | undefined> {
    const session = await this.deps.sessions.findLiveById(sessionId, this.now);
    return session ? this.deps.sessions.participantsCount(session.id, session.host_id) : undefined;
  }

  /**
   * A live update's session, read once for all its subscribers, to render as each one sees it (with
   * their token); undefined once the session is gone.
   */
  async liveView(sessionId: string) {
    const session = await this.deps.sessions.findLiveById(sessionId, this.now);
    return session ? this.viewOf(session) : undefined;
  }

  /** A chat message over the socket: stored with the session (which lives on), then heard by every subscriber. */
  async chat(actor: UserActor, token: string, text: string) {
    if (text.trim().length === 0 || text.length > CHAT_TEXT_MAX) {
      throw validationFailed(`text must be 1 to ${CHAT_TEXT_MAX} characters`);
    }
    const now = this.now;
    return this.deps.scope.transaction(async () => {
      const session = await this.live(token, true);
      await this.admit(actor, session);
      const row = await this.deps.sessions.insertMessage({
        id: randomUUID(),
        session_id: session.id,
        user_id: actor.id,
        text,
        created_at: now,
      });
      await this.deps.sessions.join(session.id, actor.id, now);
      await this.deps.sessions.touch(session.id, { updated_at: now, expires_at: this.expiry(now) });
      const message = toChatMessageDto(row, new Map([[actor.id, actor.user]]));
      this.announce({ kind: 'chat', sessionId: session.id, data: { message } });
      return message;
    });
  }

  /** Sessions past their time go, with their items and chat; their subscribers hear that they ended. */
  async prune() {
    let removed = 0;
    for (;;) {
      const ids = await this.deps.sessions.removeExpired(this.now, 500);
      for (const id of ids) this.deps.live.publish({ kind: 'ended', sessionId: id, data: { reason: 'expired' } });
      removed += ids.length;
      if (ids.length < 500) return { removed };
    }
  }

  async exportFor(owner: UserActor) {
    const hosted = await this.deps.sessions.hostedBy(owner.id, this.now);
    const trackIds = await this.deps.sessions.trackIdsOf(hosted.map((row) => row.id));
    const messages = await this.deps.sessions.messagesBy(owner.id);
    return {
      queue_sessions: hosted.map((row) => ({
        id: row.id,
        title: row.title,
        track_ids: trackIds.get(row.id) ?? [],
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      })),
      queue_chat_messages: messages.map((row) => ({
        id: row.id,
        session_id: row.session_id,
        text: row.text,
        created_at: row.created_at.toISOString(),
      })),
    };
  }

  /** Account erasure, in the deletion's unit of work: the sessions they host end for everyone. */
  async eraseFor(owner: UserActor) {
    const { sessions, messages } = await this.deps.sessions.eraseFor(owner.id);
    for (const id of sessions) this.announce({ kind: 'ended', sessionId: id, data: { reason: 'ended' } });
    return { removed_queue_sessions: sessions.length, removed_chat_messages: messages };
  }
}
