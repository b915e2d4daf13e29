// Over 400 lines on purpose: the live channel is one closure, because the handshake, the message
// handler, the fan-out and the revocation listener all share the open connections, their
// subscriptions, rate buckets and outboxes, and the sockets counted per user; split apart, that
// state would be passed between files instead of read where it lives.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { LIVE_CLOSE_CODES, LiveClientMessageSchema, type ErrorCode, type LiveServerMessage } from '@riff/contract';
import { userActor, type UserActor } from '../../platform/access/actor.js';
import { REVOCATION_REASONS, type Revocation, type Revocations } from '../../platform/auth/revocations.js';
import type { UserPush } from '../../platform/broadcast/user-push.js';
import {
  TokenInvalidError,
  type KeyRef,
  type TokenAudience,
  type TokenSigner,
} from '../../platform/auth/token-signer.js';
import type { UserRow } from '../users/users.tables.js';
import { AppError, unauthenticated } from '../../platform/errors/app-error.js';
import type { SocketEndpoint } from '../../platform/module.js';
import type { LiveEvent, LiveHub } from './live-hub.js';
import type { PresenceStore } from './live-presence.js';
import type { SessionsService } from './sessions.service.js';

export const LIVE_SOCKET_PATH = '/api/v1/ws';
/** A larger frame closes the socket (1009): a chat line of 1,000 characters, escaped, fits well within. */
export const MAX_MESSAGE_BYTES = 16 * 1024;
/** Messages a connection may send: a burst of this many, refilled at RATE_PER_SECOND. */
const BURST = 30;
const RATE_PER_SECOND = 5;
const MAX_SUBSCRIPTIONS = 20;
/** Open sockets per account on one instance: phones, tabs and speakers, not a way to hold the server's memory. */
export const MAX_SOCKETS_PER_USER = 50;
const HEARTBEAT_MS = 30_000;
/** The tokens that open the socket: a chat token, or a stream token. Access tokens do not. */
const AUDIENCES: TokenAudience[] = ['chat', 'stream'];

interface Connection {
  /** Names the socket in the presence of its sessions. */
  id: string;
  ws: WebSocket;
  actor: UserActor;
  tokenVersion: number;
  /** The key the socket's token was minted from: the socket ends with it. */
  key: KeyRef | undefined;
  /** session id → the token it was subscribed with (messages name the session by the client's token). */
  subscriptions: Map<string, string>;
  /** Messages go out in order, even those rendered for this subscriber. */
  outbox: Promise<void>;
  tokens: number;
  refilledAt: number;
  alive: boolean;
}

export interface LiveSocketDeps {
  sessions: SessionsService;
  hub: LiveHub;
  presence: PresenceStore;
  revocations: Revocations;
  /** Messages for one user's sockets (their notifications), from any instance. */
  pushes: UserPush;
  signer: TokenSigner;
  loadActiveUser(id: string): Promise<UserRow | undefined>;
  /** Whether the key a token was minted from is still live (not revoked, not expired). */
  keyIsLive(key: KeyRef): Promise<boolean>;
  logger: Logger;
}

function refuse(socket: Duplex, status: number, code: ErrorCode, message: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify({ success: false, error: { code, message, request_id: requestId } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n${status === 503 ? 'Retry-After: 1\r\n' : ''}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * The live channel of shared sessions (docs/live-sessions.md): a WebSocket at /api/v1/ws opened with
 * a chat or stream token, on which a client subscribes to sessions by their token, hears their
 * changes and chats. A bad message is answered with an error message; the connection stays.
 */
export function createLiveSocket(deps: LiveSocketDeps): SocketEndpoint {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, clientTracking: false });
  const connections = new Set<Connection>();
  /** Sockets per user, counted from the moment one is let through the handshake until it closes. */
  const socketsOf = new Map<string, number>();
  const release = (userId: string) => {
    const left = (socketsOf.get(userId) ?? 1) - 1;
    if (left > 0) socketsOf.set(userId, left);
    else socketsOf.delete(userId);
  };
  let closing = false;

  /** A message, or its JSON text already encoded (one items_changed text serves every subscriber who sees it alike). */
  const send = (connection: Connection, message: LiveServerMessage | Buffer) => {
    if (connection.ws.readyState !== connection.ws.OPEN) return;
    if (Buffer.isBuffer(message)) connection.ws.send(message, { binary: false });
    else connection.ws.send(JSON.stringify(message));
  };
  const enqueue = (connection: Connection, work: () => Promise<LiveServerMessage | Buffer | undefined>) => {
    connection.outbox = connection.outbox
      .then(work)
      .then((message) => {
        if (message !== undefined) send(connection, message);
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'live session update not sent'));
  };
  const fail = (connection: Connection, code: ErrorCode, message: string, token?: string) =>
    send(connection, {
      type: 'error',
      ...(token !== undefined ? { session_token: token } : {}),
      data: { code, message },
    });

  async function authenticate(
    req: IncomingMessage,
  ): Promise<{ actor: UserActor; tokenVersion: number; key: KeyRef | undefined }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = url.searchParams.get('token') ?? bearer;
    if (!token) throw unauthenticated('Open the socket with ?token=<chat or stream token>');
    let expired = false;
    for (const audience of AUDIENCES) {
      try {
        const claims = await deps.signer.verify(token, audience);
        const user = await deps.loadActiveUser(claims.sub);
        if (!user || user.token_version !== claims.tv || (claims.key && !(await deps.keyIsLive(claims.key)))) {
          throw unauthenticated('This token is no longer valid');
        }
        const userAgent = req.headers['user-agent'];
        const origin = {
          ip: req.socket.remoteAddress ?? null,
          userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
          requestId: null,
        };
        return {
          actor: userActor(user, audience === 'stream' ? 'stream_token' : 'bearer', origin, undefined, claims.key),
          tokenVersion: claims.tv,
          key: claims.key,
        };
      } catch (error) {
        if (!(error instanceof TokenInvalidError)) throw error;
        expired ||= error.expired;
      }
    }
    if (expired) throw new AppError('TOKEN_EXPIRED', 'The token has expired');
    throw unauthenticated('The socket takes a chat or stream token');
  }

  /**
   * The user may still act (not deleted, banned, or signed out everywhere since the socket opened),
   * and the key the token was minted from is live. A revocation closes the socket at once (below);
   * this is for one that was missed (Redis down while it was announced).
   */
  async function stillValid(connection: Connection): Promise<boolean> {
    const user = await deps.loadActiveUser(connection.actor.id);
    if (
      user &&
      user.token_version === connection.tokenVersion &&
      (!connection.key || (await deps.keyIsLive(connection.key)))
    ) {
      connection.actor = { ...connection.actor, user };
      return true;
    }
    connection.ws.close(LIVE_CLOSE_CODES.REVOKED, 'The token is no longer valid');
    return false;
  }

  /** Every socket of the user (or only those opened with the key), on this instance, closes now. */
  deps.revocations.listen((revocation: Revocation) => {
    for (const connection of connections) {
      if (connection.actor.id !== revocation.userId) continue;
      if (revocation.keyId !== undefined && connection.key?.id !== revocation.keyId) continue;
      // closing at once: no further message is sent to it (send checks the socket is open)
      connection.ws.close(LIVE_CLOSE_CODES.REVOKED, REVOCATION_REASONS[revocation.reason]);
    }
  });

  /** A message for one user reaches each of their sockets on this instance, in order with the rest. */
  deps.pushes.listen(({ userId, message }) => {
    for (const connection of connections) {
      if (connection.actor.id === userId) enqueue(connection, async () => message);
    }
  });

  function takeToken(connection: Connection): boolean {
    const now = Date.now();
    connection.tokens = Math.min(BURST, connection.tokens + ((now - connection.refilledAt) / 1000) * RATE_PER_SECOND);
    connection.refilledAt = now;
    if (connection.tokens < 1) return false;
    connection.tokens -= 1;
    return true;
  }

  async function handle(connection: Connection, raw: RawData, isBinary: boolean): Promise<void> {
    if (!takeToken(connection))
      return fail(connection, 'RATE_LIMITED', `At most ${RATE_PER_SECOND} messages per second`);
    if (isBinary) return fail(connection, 'BAD_REQUEST', 'Messages are JSON text');
    let json: unknown;
    try {
      json = JSON.parse(raw.toString());
    } catch {
      return fail(connection, 'BAD_REQUEST', 'Messages are JSON objects');
    }
    const parsed = LiveClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      const token = (json as { session_token?: unknown } | null)?.session_token;
      const issue = parsed.error.issues[0];
      return fail(
        connection,
        'VALIDATION_FAILED',
        `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`,
        typeof token === 'string' ? token.slice(0, 256) : undefined,
      );
    }
    const message = parsed.data;
    const token = message.session_token;
    try {
      if (message.type === 'unsubscribe') {
        for (const [id, subscribed] of connection.subscriptions) {
          if (subscribed !== token) continue;
          connection.subscriptions.delete(id);
          leave(connection, id);
        }
        return send(connection, { type: 'unsubscribed', session_token: token, data: {} });
      }
      if (!(await stillValid(connection))) return;
      if (message.type === 'subscribe') {
        if (
          connection.subscriptions.size >= MAX_SUBSCRIPTIONS &&
          ![...connection.subscriptions.values()].includes(token)
        ) {
          return fail(connection, 'LIMIT_REACHED', `At most ${MAX_SUBSCRIPTIONS} sessions per connection`, token);
        }
        const { sessionId, session, chat } = await deps.sessions.subscribe(connection.actor, token);
        // closed (or revoked) meanwhile: it must not enter the presence it can no longer leave
        if (connection.ws.readyState !== connection.ws.OPEN) return;
        const already = connection.subscriptions.has(sessionId);
        connection.subscriptions.set(sessionId, token);
        enqueue(connection, async () => ({ type: 'subscribed', session_token: token, data: { session, chat } }));
        if (!already) enter(connection, sessionId);
        return;
      }
      if (![...connection.subscriptions.values()].includes(token))
        return fail(connection, 'BAD_REQUEST', 'Subscribe to the session before chatting', token);
      await deps.sessions.chat(connection.actor, token, message.text);
    } catch (error) {
      if (error instanceof AppError) return fail(connection, error.code, error.message, token);
      deps.logger.error({ err: error }, 'live socket message failed');
      fail(connection, 'UNAVAILABLE', 'Could not do that just now: try again', token);
    }
  }

  /** The last presence version sent per session: an older one that arrives late (from another instance) is dropped. */
  const presenceSent = new Map<string, number>();

  function deliver(event: LiveEvent): void {
    // items_changed: the session is read once for every subscriber here, then rendered once per way of seeing it
    let view: ReturnType<SessionsService['liveView']> | undefined;
    const rendered = new Map<string, Buffer>();
    if (event.kind === 'presence') {
      if (event.version <= (presenceSent.get(event.sessionId) ?? 0)) return;
      presenceSent.set(event.sessionId, event.version);
    }
    let heard = false;
    for (const connection of connections) {
      const token = connection.subscriptions.get(event.sessionId);
      if (token === undefined) continue;
      heard = true;
      switch (event.kind) {
        case 'items_changed': {
          if (view === undefined) {
            view = deps.sessions.liveView(event.sessionId);
            // each subscriber's send awaits it (and logs a failure); this keeps a failure from going unhandled before then
            view.catch(() => undefined);
          }
          const read = view;
          enqueue(connection, async () => {
            const live = await read;
            if (!live) return undefined;
            const key = `${live.viewerKey(connection.actor)}\n${token}`;
            let text = rendered.get(key);
            if (text === undefined) {
              const message: LiveServerMessage = {
                type: 'items_changed',
                session_token: token,
                data: { session: live.render(connection.actor, token) },
              };
              text = Buffer.from(JSON.stringify(message));
              rendered.set(key, text);
            }
            return text;
          });
          break;
        }
        case 'ended':
          connection.subscriptions.delete(event.sessionId);
          forget(connection, event.sessionId);
          enqueue(connection, async () => ({ type: 'ended', session_token: token, data: event.data }));
          break;
        case 'presence':
          enqueue(connection, async () => ({ type: 'presence', session_token: token, data: event.data }));
          break;
        case 'playback_changed':
          enqueue(connection, async () => ({ type: 'playback_changed', session_token: token, data: event.data }));
          break;
        case 'chat':
          enqueue(connection, async () => ({ type: 'chat', session_token: token, data: event.data }));
          break;
      }
    }
    // nobody here hears the session: the next presence may start over (a store that forgot it)
    if (!heard || event.kind === 'ended') presenceSent.delete(event.sessionId);
  }
  deps.hub.listen(deliver);

  /**
   * Presence: a socket entering or leaving a session is told to every subscriber, on every
   * instance, with who is there now. A store that fails (Redis down) leaves that change untold.
   */
  const presenceOf = (connection: Connection, sessionId: string) => ({
    sessionId,
    connectionId: connection.id,
    user: { id: connection.actor.id, username: connection.actor.user.username },
  });
  /** Announcements under way: shutdown lets them finish (the others hear that this instance's users left). */
  const announcing = new Set<Promise<void>>();
  function announce(connection: Connection, sessionId: string, kind: 'enter' | 'leave'): void {
    const entry = presenceOf(connection, sessionId);
    const work = (async () => {
      const change = kind === 'enter' ? await deps.presence.enter(entry) : await deps.presence.leave(entry);
      const count = await deps.sessions.participantsCount(sessionId);
      if (count === undefined) return;
      const { version, participants, joined, left } = change;
      deps.hub.publish({
        kind: 'presence',
        sessionId,
        version,
        data: { participants, participants_count: count, ...(joined ? { joined } : {}), ...(left ? { left } : {}) },
      });
    })().catch((error: unknown) => deps.logger.warn({ err: error }, 'live session presence not announced'));
    announcing.add(work);
    void work.finally(() => announcing.delete(work));
  }
  const enter = (connection: Connection, sessionId: string) => announce(connection, sessionId, 'enter');
  const leave = (connection: Connection, sessionId: string) => announce(connection, sessionId, 'leave');
  /** The session ended: its presence goes without a word. */
  const forget = (connection: Connection, sessionId: string) =>
    void deps.presence
      .leave(presenceOf(connection, sessionId))
      .catch((error: unknown) => deps.logger.debug({ err: error }, 'presence entry not removed'));

  const heartbeat = setInterval(() => {
    const present = [];
    for (const connection of connections) {
      if (!connection.alive) {
        connection.ws.terminate();
        continue;
      }
      connection.alive = false;
      connection.ws.ping();
      for (const sessionId of connection.subscriptions.keys()) present.push(presenceOf(connection, sessionId));
    }
    deps.presence
      .refresh(present)
      .catch((error: unknown) => deps.logger.debug({ err: error }, 'presence not refreshed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function accept(ws: WebSocket, actor: UserActor, tokenVersion: number, key: KeyRef | undefined): void {
    const connection: Connection = {
      id: randomUUID(),
      ws,
      actor,
      tokenVersion,
      key,
      subscriptions: new Map(),
      outbox: Promise.resolve(),
      tokens: BURST,
      refilledAt: Date.now(),
      alive: true,
    };
    connections.add(connection);
    ws.on('pong', () => (connection.alive = true));
    ws.on('message', (raw, isBinary) => {
      handle(connection, raw, isBinary).catch((error: unknown) =>
        deps.logger.error({ err: error }, 'live socket message failed'),
      );
    });
    // a frame over the limit or a broken one: ws closes the socket (1009, 1002); nothing to throw
    ws.on('error', (error) => deps.logger.debug({ err: error }, 'live socket error'));
    ws.on('close', () => {
      connections.delete(connection);
      release(actor.id);
      for (const sessionId of connection.subscriptions.keys()) leave(connection, sessionId);
      connection.subscriptions.clear();
    });
  }

  return {
    path: LIVE_SOCKET_PATH,
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      if (closing) return refuse(socket, 503, 'UNAVAILABLE', 'The service is shutting down');
      void (async () => {
        try {
          const { actor, tokenVersion, key } = await authenticate(req);
          const open = socketsOf.get(actor.id) ?? 0;
          if (open >= MAX_SOCKETS_PER_USER)
            return refuse(socket, 429, 'RATE_LIMITED', `At most ${MAX_SOCKETS_PER_USER} live connections per account`);
          // counted before the awaits below, so a burst of handshakes cannot pass the limit together
          socketsOf.set(actor.id, open + 1);
          let accepted = false;
          try {
            // with Redis, the subscription to other instances' updates is in place before the first client is
            await deps.hub.ready();
            if (closing || socket.destroyed) return refuse(socket, 503, 'UNAVAILABLE', 'The service is shutting down');
            server.handleUpgrade(req, socket, head, (ws) => {
              accepted = true;
              accept(ws, actor, tokenVersion, key);
            });
          } finally {
            // handleUpgrade calls back at once, or never when it refused the handshake itself
            if (!accepted) release(actor.id);
          }
        } catch (error) {
          if (error instanceof AppError) return refuse(socket, error.status, error.code, error.message);
          deps.logger.error({ err: error }, 'live socket upgrade failed');
          refuse(socket, 503, 'UNAVAILABLE', 'The service is unavailable for a moment');
        }
      })();
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      const closed = [...connections].map(
        (connection) =>
          new Promise<void>((resolve) => {
            connection.ws.once('close', () => resolve());
            connection.ws.close(1001, 'The service is shutting down');
            setTimeout(() => {
              connection.ws.terminate();
              resolve();
            }, 1_000).unref();
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(announcing);
      await deps.presence.close();
    },
  };
}
