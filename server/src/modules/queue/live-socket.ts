import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import { CHAT_TEXT_MAX, type ErrorCode } from '@riff/contract';
import { userActor, type UserActor } from '../../platform/access/actor.js';
import { TokenInvalidError, type TokenAudience, type TokenSigner } from '../../platform/auth/token-signer.js';
import type { UserRow } from '../../platform/db/database.schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SocketEndpoint } from '../../platform/module.js';
import type { LiveEvent, LiveHub } from './live-hub.js';
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
/** The tokens that open the socket (ADDENDUM): a chat token, or a stream token. Access tokens do not. */
const AUDIENCES: TokenAudience[] = ['chat', 'stream'];

const sessionToken = z.string().min(1).max(256);
const InboundSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), session_token: sessionToken }),
  z.object({ type: z.literal('unsubscribe'), session_token: sessionToken }),
  z.object({ type: z.literal('chat'), session_token: sessionToken, text: z.string().min(1).max(CHAT_TEXT_MAX) }),
]);

interface Connection {
  ws: WebSocket;
  actor: UserActor;
  tokenVersion: number;
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
  signer: TokenSigner;
  loadActiveUser(id: string): Promise<UserRow | undefined>;
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
  const send = (connection: Connection, message: object | Buffer) => {
    if (connection.ws.readyState !== connection.ws.OPEN) return;
    if (Buffer.isBuffer(message)) connection.ws.send(message, { binary: false });
    else connection.ws.send(JSON.stringify(message));
  };
  const enqueue = (connection: Connection, work: () => Promise<object | Buffer | undefined>) => {
    connection.outbox = connection.outbox
      .then(work)
      .then((message) => {
        if (message !== undefined) send(connection, message);
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'live session update not sent'));
  };
  const fail = (connection: Connection, code: ErrorCode, message: string, token?: string) =>
    send(connection, { type: 'error', ...(token !== undefined ? { session_token: token } : {}), data: { code, message } });

  async function authenticate(req: IncomingMessage): Promise<{ actor: UserActor; tokenVersion: number }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = url.searchParams.get('token') ?? bearer;
    if (!token) throw new AppError('UNAUTHENTICATED', 'Open the socket with ?token=<chat or stream token>');
    let expired = false;
    for (const audience of AUDIENCES) {
      try {
        const claims = await deps.signer.verify(token, audience);
        const user = await deps.loadActiveUser(claims.sub);
        if (!user || user.token_version !== claims.tv) throw new AppError('UNAUTHENTICATED', 'This token is no longer valid');
        const userAgent = req.headers['user-agent'];
        const origin = { ip: req.socket.remoteAddress ?? null, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null, requestId: null };
        return { actor: userActor(user, audience === 'stream' ? 'stream_token' : 'bearer', origin), tokenVersion: claims.tv };
      } catch (error) {
        if (!(error instanceof TokenInvalidError)) throw error;
        expired ||= error.expired;
      }
    }
    if (expired) throw new AppError('TOKEN_EXPIRED', 'The token has expired');
    throw new AppError('UNAUTHENTICATED', 'The socket takes a chat or stream token');
  }

  /** The user may still act (not deleted, banned, or signed out everywhere since the socket opened). */
  async function stillValid(connection: Connection): Promise<boolean> {
    const user = await deps.loadActiveUser(connection.actor.id);
    if (user && user.token_version === connection.tokenVersion) {
      connection.actor = { ...connection.actor, user };
      return true;
    }
    connection.ws.close(4401, 'The token is no longer valid');
    return false;
  }

  function takeToken(connection: Connection): boolean {
    const now = Date.now();
    connection.tokens = Math.min(BURST, connection.tokens + ((now - connection.refilledAt) / 1000) * RATE_PER_SECOND);
    connection.refilledAt = now;
    if (connection.tokens < 1) return false;
    connection.tokens -= 1;
    return true;
  }

  async function handle(connection: Connection, raw: RawData, isBinary: boolean): Promise<void> {
    if (!takeToken(connection)) return fail(connection, 'RATE_LIMITED', `At most ${RATE_PER_SECOND} messages per second`);
    if (isBinary) return fail(connection, 'BAD_REQUEST', 'Messages are JSON text');
    let json: unknown;
    try {
      json = JSON.parse(raw.toString());
    } catch {
      return fail(connection, 'BAD_REQUEST', 'Messages are JSON objects');
    }
    const parsed = InboundSchema.safeParse(json);
    if (!parsed.success) {
      const token = (json as { session_token?: unknown } | null)?.session_token;
      const issue = parsed.error.issues[0];
      return fail(connection, 'VALIDATION_FAILED', `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`, typeof token === 'string' ? token.slice(0, 256) : undefined);
    }
    const message = parsed.data;
    const token = message.session_token;
    try {
      if (message.type === 'unsubscribe') {
        for (const [id, subscribed] of connection.subscriptions) if (subscribed === token) connection.subscriptions.delete(id);
        return send(connection, { type: 'unsubscribed', session_token: token, data: {} });
      }
      if (!(await stillValid(connection))) return;
      if (message.type === 'subscribe') {
        if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS && ![...connection.subscriptions.values()].includes(token)) {
          return fail(connection, 'LIMIT_REACHED', `At most ${MAX_SUBSCRIPTIONS} sessions per connection`, token);
        }
        const { sessionId, session, chat } = await deps.sessions.subscribe(connection.actor, token);
        connection.subscriptions.set(sessionId, token);
        return enqueue(connection, async () => ({ type: 'subscribed', session_token: token, data: { session, chat } }));
      }
      if (![...connection.subscriptions.values()].includes(token)) return fail(connection, 'BAD_REQUEST', 'Subscribe to the session before chatting', token);
      await deps.sessions.chat(connection.actor, token, message.text);
    } catch (error) {
      if (error instanceof AppError) return fail(connection, error.code, error.message, token);
      deps.logger.error({ err: error }, 'live socket message failed');
      fail(connection, 'UNAVAILABLE', 'Could not do that just now: try again', token);
    }
  }

  function deliver(event: LiveEvent): void {
    // items_changed: the session is read once for every subscriber here, then rendered once per way of seeing it
    let view: ReturnType<SessionsService['liveView']> | undefined;
    const rendered = new Map<string, Buffer>();
    for (const connection of connections) {
      const token = connection.subscriptions.get(event.sessionId);
      if (token === undefined) continue;
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
              text = Buffer.from(JSON.stringify({ type: 'items_changed', session_token: token, data: { session: live.render(connection.actor, token) } }));
              rendered.set(key, text);
            }
            return text;
          });
          break;
        }
        case 'ended':
          connection.subscriptions.delete(event.sessionId);
          enqueue(connection, async () => ({ type: 'ended', session_token: token, data: event.data }));
          break;
        default:
          enqueue(connection, async () => ({ type: event.kind, session_token: token, data: event.data }));
      }
    }
  }
  deps.hub.listen(deliver);

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.ws.terminate();
        continue;
      }
      connection.alive = false;
      connection.ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function accept(ws: WebSocket, actor: UserActor, tokenVersion: number): void {
    const connection: Connection = { ws, actor, tokenVersion, subscriptions: new Map(), outbox: Promise.resolve(), tokens: BURST, refilledAt: Date.now(), alive: true };
    connections.add(connection);
    ws.on('pong', () => (connection.alive = true));
    ws.on('message', (raw, isBinary) => {
      handle(connection, raw, isBinary).catch((error: unknown) => deps.logger.error({ err: error }, 'live socket message failed'));
    });
    // a frame over the limit or a broken one: ws closes the socket (1009, 1002); nothing to throw
    ws.on('error', (error) => deps.logger.debug({ err: error }, 'live socket error'));
    ws.on('close', () => {
      connections.delete(connection);
      release(actor.id);
    });
  }

  return {
    path: LIVE_SOCKET_PATH,
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      if (closing) return refuse(socket, 503, 'UNAVAILABLE', 'The service is shutting down');
      void (async () => {
        try {
          const { actor, tokenVersion } = await authenticate(req);
          const open = socketsOf.get(actor.id) ?? 0;
          if (open >= MAX_SOCKETS_PER_USER) return refuse(socket, 429, 'RATE_LIMITED', `At most ${MAX_SOCKETS_PER_USER} live connections per account`);
          // counted before the awaits below, so a burst of handshakes cannot pass the limit together
          socketsOf.set(actor.id, open + 1);
          let accepted = false;
          try {
            // with Redis, the subscription to other instances' updates is in place before the first client is
            await deps.hub.ready();
            if (closing || socket.destroyed) return refuse(socket, 503, 'UNAVAILABLE', 'The service is shutting down');
            server.handleUpgrade(req, socket, head, (ws) => {
              accepted = true;
              accept(ws, actor, tokenVersion);
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
      await deps.hub.close();
    },
  };
}
