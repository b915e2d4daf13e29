import WebSocket from 'ws';
import type { TestServer } from '../support/test-server.js';
import type { TestUser } from '../support/factories.js';
import { expectStatus } from '../support/typed-api.js';

export type LiveMessage = { type: string; session_token?: string; data: any };

/** A real WebSocket client on the live channel: messages are queued, and waited for with a deadline. */
export interface LiveClient {
  ws: WebSocket;
  send(message: unknown): void;
  /** The next message of this type (earlier messages of other types are skipped), within `ms`. */
  next(type: string, ms?: number): Promise<LiveMessage>;
  /** Every message received so far (for asserting that something did not arrive). */
  received: LiveMessage[];
  close(): Promise<void>;
}

/** The close code and reason of the client's socket, once the server closes it (within `ms`). */
export function closeOf(client: LiveClient, ms = 15_000): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the socket was not closed within ${ms} ms`)), ms);
    client.ws.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
}

export const liveUrl = (server: TestServer, token: string) =>
  `${server.directUrl.replace(/^http/, 'ws')}/api/v1/ws?token=${encodeURIComponent(token)}`;

export async function chatToken(server: TestServer, user: TestUser): Promise<string> {
  return expectStatus(await user.api.auth.chatToken(), 200).body.data.token;
}

export function connectLive(url: string): Promise<LiveClient> {
  const ws = new WebSocket(url);
  const received: LiveMessage[] = [];
  let read = 0;
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    received.push(JSON.parse(data.toString()) as LiveMessage);
    for (const wake of waiters.splice(0)) wake();
  });
  const client: LiveClient = {
    ws,
    received,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async next(type, ms = 5_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        while (read < received.length) {
          const message = received[read++]!;
          if (message.type === type) return message;
        }
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `no "${type}" message within ${ms} ms; received: ${JSON.stringify(received.map((m) => m.type))}`,
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`refused: ${res.statusCode}`), {
            status: res.statusCode,
            body: JSON.parse(body || '{}'),
          }),
        ),
      );
    });
  });
}
