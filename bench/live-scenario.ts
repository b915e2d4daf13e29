/**
 * Live-session fan-out (issue 14): `LIVE_CLIENTS` sockets subscribed to one shared session; the host
 * changes the playback `LIVE_CHANGES` times, one after another, and each change's latency is the
 * time from sending the HTTP request to each socket's receipt of `playback_changed`. The bare
 * server does the same I/O with `ws` and one UPDATE: it reads the change, writes it to the
 * database, sends it to every socket, then answers.
 */
import type { IncomingMessage, Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { signInUser, type Child } from './bench-support.js';

export const LIVE_CLIENTS = 200;
export const BARE_LIVE_PATH = '/live';

type Query = (text: string, values: unknown[]) => Promise<unknown[]>;

/** The bare side: `/live` sockets and `POST /live/change`, which broadcasts its body. */
export function attachBareLive(server: Server, query: Query): (req: IncomingMessage) => Promise<string> {
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== BARE_LIVE_PATH) return socket.destroy();
    sockets.handleUpgrade(req, socket, head, (ws) => ws.on('message', () => ws.send(JSON.stringify({ type: 'subscribed' }))));
  });
  return async (req) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const change = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { position_seconds: number; session_token: string };
    await query('update queue_sessions set position_seconds = $1, updated_at = now() where token_hash = $2', [change.position_seconds, change.session_token]);
    const message = JSON.stringify({ type: 'playback_changed', session_token: change.session_token, data: { position_seconds: change.position_seconds } });
    for (const client of sockets.clients) client.send(message);
    return '{"success":true}';
  };
}

interface LiveTarget {
  socketUrl: string;
  sessionToken: string;
  change(positionSeconds: number): Promise<Response>;
}

async function riffTarget(riff: Child): Promise<LiveTarget> {
  const host = await signInUser(riff);
  const auth = { authorization: `Bearer ${host.accessToken}`, 'content-type': 'application/json' };
  const created = await fetch(`${riff.baseUrl}/api/v1/queue/session`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'bench' }) });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${await created.text()}`);
  const sessionToken: string = (await created.json()).data.session.token;
  const chat = await fetch(`${riff.baseUrl}/api/v1/chat/token`, { headers: auth });
  const socketToken: string = (await chat.json()).data.token;
  return {
    socketUrl: `${riff.baseUrl.replace('http', 'ws')}/api/v1/ws?token=${encodeURIComponent(socketToken)}`,
    sessionToken,
    change: (position_seconds) =>
      fetch(`${riff.baseUrl}/api/v1/queue/session/${sessionToken}`, { method: 'PUT', headers: auth, body: JSON.stringify({ position_seconds }) }),
  };
}

function bareTarget(bare: Child): LiveTarget {
  const sessionToken = 'bench-session';
  return {
    socketUrl: `${bare.baseUrl.replace('http', 'ws')}${BARE_LIVE_PATH}`,
    sessionToken,
    change: (position_seconds) => fetch(`${bare.baseUrl}${BARE_LIVE_PATH}/change`, { method: 'POST', body: JSON.stringify({ position_seconds, session_token: sessionToken }) }),
  };
}

/** Opens the sockets and subscribes each; answers them once every one heard `subscribed`. */
async function connect(target: LiveTarget, clients: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(target.socketUrl);
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

/** `changes` playback changes, one at a time: every socket's latency for each (ms). */
async function drive(target: LiveTarget, sockets: WebSocket[], changes: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 1; i <= changes; i++) {
    const started = performance.now();
    const heard = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          const onMessage = (raw: WebSocket.RawData) => {
            const message = JSON.parse(raw.toString()) as { type: string; data?: { position_seconds?: number } };
            if (message.type !== 'playback_changed' || message.data?.position_seconds !== i) return;
            latencies.push(performance.now() - started);
            ws.off('message', onMessage);
            resolve();
          };
          ws.on('message', onMessage);
        }),
    );
    const reply = await target.change(i);
    if (!reply.ok) throw new Error(`change ${i}: ${reply.status} ${await reply.text()}`);
    await Promise.all(heard);
  }
  return latencies;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? NaN;
};

/** Both servers in turns, `rounds` times: every latency of each. */
export async function liveFanout(riff: Child, bare: Child, options: { rounds: number; changes: number }): Promise<{ riff: number[]; bare: number[] }> {
  const targets = { riff: await riffTarget(riff), bare: bareTarget(bare) };
  const sockets = { riff: await connect(targets.riff, LIVE_CLIENTS), bare: await connect(targets.bare, LIVE_CLIENTS) };
  const latencies = { riff: [] as number[], bare: [] as number[] };
  try {
    // warm-up, not counted
    await drive(targets.bare, sockets.bare, 3);
    await drive(targets.riff, sockets.riff, 3);
    for (let round = 0; round < options.rounds; round++) {
      latencies.bare.push(...(await drive(targets.bare, sockets.bare, options.changes)));
      latencies.riff.push(...(await drive(targets.riff, sockets.riff, options.changes)));
    }
  } finally {
    for (const ws of [...sockets.riff, ...sockets.bare]) ws.terminate();
  }
  return latencies;
}
