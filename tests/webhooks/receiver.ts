import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request: a status (and body), or a function that takes over the response. */
export type Answer =
  | number
  | { status: number; body?: string; headers?: Record<string, string> }
  | ((res: ServerResponse) => void);

/**
 * A real HTTP receiver on loopback for webhook deliveries: records every request and answers
 * from a queue of answers (then `fallback`). `verify` checks a request with the standardwebhooks
 * package, as a receiver in production would.
 */
export async function startReceiver(fallback: Answer = 200) {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      const answer = answers.shift() ?? fallback;
      if (typeof answer === 'function') return answer(res);
      const { status, body, headers } =
        typeof answer === 'number' ? { status: answer, body: '{"ok":true}', headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** The next answers, in order (then the fallback). */
    answer: (...next: Answer[]) => answers.push(...next),
    /** Resolves once `count` requests have arrived in all (fails after timeoutMs). */
    waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received)) });
      });
    },
    verify(request: Received, secret: string) {
      return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: any;
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
