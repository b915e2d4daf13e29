/**
 * Live-session fan-out (issue 14): `LIVE_CLIENTS` sockets (of several listeners: an account may hold
 * MAX_SOCKETS_PER_USER) subscribed to one shared session; the host makes changes one after another,
 * and each change's latency is the time from sending the HTTP request to each socket's receipt of
 * the message. Two kinds: the playback (`playback_changed`, the same message for everyone) and an
 * added item (`items_changed`, the session as each subscriber may see it, read for each). The bare
 * server does the same I/O with `ws` and one UPDATE: it reads the change, writes it to the
 * database, sends one message to every socket, then answers.
 */
import type { IncomingMessage, Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { MAX_SOCKETS_PER_USER } from '../server/src/modules/queue/live-socket.js';
import { signInUser, type Child } from './bench-support.js';

export const LIVE_CLIENTS = 200;
export const BARE_LIVE_PATH = '/live';

type Query = (text: string, values: unknown[]) => Promise<unknown[]>;

/** The bare side: `/live` sockets and `POST /live/change`, which broadcasts its body. */
export function attachBareLive(server: Server, query: Query): (req: IncomingMessage) => Promise<string> {
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== BARE_LIVE_PATH) return socket.destroy();
    sockets.handleUpgrade(req, socket, head, (ws) =>
      ws.on('message', () => ws.send(JSON.stringify({ type: 'subscribed' }))),
    );
  });
  return async (req) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const change = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      kind: LiveChange;
      position_seconds: number;
      session_token: string;
    };
    await query('update queue_sessions set position_seconds = $1, updated_at = now() where token_hash = $2', [
      change.position_seconds,
      change.session_token,
    ]);
    const message = JSON.stringify({
      type: MESSAGE_OF[change.kind],
      session_token: change.session_token,
      data: { position_seconds: change.position_seconds },
    });
    for (const client of sockets.clients) client.send(message);
    return '{"success":true}';
  };
}

export type LiveChange = 'playback' | 'items';
const MESSAGE_OF: Record<LiveChange, string> = { playback: 'playback_changed', items: 'items_changed' };

interface LiveTarget {
  /** One per listener; each is used for at most MAX_SOCKETS_PER_USER sockets. */
  socketUrls: string[];
  sessionToken: string;
  change(kind: LiveChange, positionSeconds: number): Promise<Response>;
}

async function riffTarget(riff: Child, trackId: string): Promise<LiveTarget> {
  const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const host = await signInUser(riff);
  const created = await fetch(`${riff.baseUrl}/api/v1/queue/session`, {
    method: 'POST',
    headers: json(host.accessToken),
    body: JSON.stringify({ title: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${await created.text()}`);
  const sessionToken: string = (await created.json()).data.session.token;
  const socketUrls: string[] = [];
  for (let i = 0; i < Math.ceil(LIVE_CLIENTS / MAX_SOCKETS_PER_USER); i++) {
    const listener = await signInUser(riff);
    const chat = await fetch(`${riff.baseUrl}/api/v1/chat/token`, { headers: json(listener.accessToken) });
    socketUrls.push(
      `${riff.baseUrl.replace('http', 'ws')}/api/v1/ws?token=${encodeURIComponent((await chat.json()).data.token)}`,
    );
  }
  const session = `${riff.baseUrl}/api/v1/queue/session/${sessionToken}`;
  return {
    socketUrls,
    sessionToken,
    change: (kind, position_seconds) =>
      kind === 'playback'
        ? fetch(session, { method: 'PUT', headers: json(host.accessToken), body: JSON.stringify({ position_seconds }) })
        : fetch(`${session}/items`, {
            method: 'POST',
            headers: json(host.accessToken),
            body: JSON.stringify({ track_id: trackId }),
          }),
  };
}

function bareTarget(bare: Child): LiveTarget {
  const sessionToken = 'bench-session';
  return {
    socketUrls: [`${bare.baseUrl.replace('http', 'ws')}${BARE_LIVE_PATH}`],
    sessionToken,
    change: (kind, position_seconds) =>
      fetch(`${bare.baseUrl}${BARE_LIVE_PATH}/change`, {
        method: 'POST',
        body: JSON.stringify({ kind, position_seconds, session_token: sessionToken }),
      }),
  };
}

/** Opens the sockets and subscribes each; answers them once every one heard `subscribed`. */
async function connect(target: LiveTarget, clients: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: clients },
      (_, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(target.socketUrls[i % target.socketUrls.length]!);
          ws.once('error', reject);
          ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', session_token: target.sessionToken })));
          const onMessage = (raw: WebSocket.RawData) => {
            if ((JSON.parse(raw.toString()) as { type: string }).type !== 'subscribed') return;
            ws.off('message', onMessage);
            resolve(ws);
          };
          ws.on('message', onMessage);
        }),
    ),
  );
}

/** `changes` changes of one kind, one at a time: every socket's latency for each (ms). */
async function drive(target: LiveTarget, sockets: WebSocket[], kind: LiveChange, changes: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 1; i <= changes; i++) {
    const started = performance.now();
    const heard = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          const onMessage = (raw: WebSocket.RawData) => {
            // this process stands for 200 clients on one thread: it reads what it needs, not whole sessions
            const text = raw.toString();
            if (!text.startsWith(`{"type":"${MESSAGE_OF[kind]}"`)) return;
            if (
              kind === 'playback' &&
              (JSON.parse(text) as { data: { position_seconds: number } }).data.position_seconds !== i
            )
              return;
            latencies.push(performance.now() - started);
            ws.off('message', onMessage);
            resolve();
          };
          ws.on('message', onMessage);
        }),
    );
    const reply = await target.change(kind, i);
    if (!reply.ok) throw new Error(`change ${i}: ${reply.status} ${await reply.text()}`);
    await Promise.all(heard);
  }
  return latencies;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? NaN;
};

type Latencies = Record<LiveChange, { riff: number[]; bare: number[] }>;

/** Both servers in turns, `rounds` times, each kind of change: every latency of each. `trackId`: a public track to add. */
export async function liveFanout(
  riff: Child,
  bare: Child,
  trackId: string,
  options: { rounds: number; changes: number },
): Promise<Latencies> {
  const targets = { riff: await riffTarget(riff, trackId), bare: bareTarget(bare) };
  const sockets = { riff: await connect(targets.riff, LIVE_CLIENTS), bare: await connect(targets.bare, LIVE_CLIENTS) };
  const latencies: Latencies = { playback: { riff: [], bare: [] }, items: { riff: [], bare: [] } };
  try {
    for (const kind of ['playback', 'items'] as const) {
      // warm-up, not counted
      await drive(targets.bare, sockets.bare, kind, 3);
      await drive(targets.riff, sockets.riff, kind, 3);
      for (let round = 0; round < options.rounds; round++) {
        latencies[kind].bare.push(...(await drive(targets.bare, sockets.bare, kind, options.changes)));
        latencies[kind].riff.push(...(await drive(targets.riff, sockets.riff, kind, options.changes)));
      }
    }
  } finally {
    for (const ws of [...sockets.riff, ...sockets.bare]) ws.terminate();
  }
  return latencies;
}
