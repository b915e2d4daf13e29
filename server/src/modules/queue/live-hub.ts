import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { QueueChatMessage } from '@riff/contract';

/** A change of a shared session, as every instance hears it; each socket server renders it for its clients. */
export type LiveEvent =
  | { kind: 'items_changed'; sessionId: string }
  | { kind: 'playback_changed'; sessionId: string; data: { current_index: number; position_seconds: number; is_playing: boolean; expires_at: string } }
  | { kind: 'chat'; sessionId: string; data: { message: QueueChatMessage } }
  | { kind: 'ended'; sessionId: string; data: { reason: 'ended' | 'expired' } };

export interface LiveHub {
  /** Delivers to this instance's listeners at once, and to the other instances' through Redis when there is one. */
  publish(event: LiveEvent): void;
  listen(listener: (event: LiveEvent) => void): void;
  /** Resolves once the Redis subscription is in place (at once without Redis; after a second at most). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'riff:live:queue-sessions';

interface Envelope {
  from: string;
  event: LiveEvent;
}

/**
 * In-process without REDIS_URL; with it, every instance publishes on one channel and hears the
 * others (its own messages it has delivered already). Redis is an accelerator: while it is down,
 * each instance still serves its own clients (logged once per outage).
 */
export function createLiveHub(options: { redisUrl?: string; logger: Logger }): LiveHub {
  const listeners: ((event: LiveEvent) => void)[] = [];
  const deliver = (event: LiveEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        options.logger.error({ err: error }, 'live session listener failed');
      }
    }
  };
  const listen = (listener: (event: LiveEvent) => void) => void listeners.push(listener);
  if (!options.redisUrl) return { publish: deliver, listen, ready: async () => undefined, close: async () => undefined };

  const instance = randomUUID();
  let closing = false;
  let down = false;
  const lost = () => {
    if (down || closing) return;
    down = true;
    options.logger.warn('Redis is unreachable: live session updates reach only the clients of this instance until it is back');
  };
  const connect = async (url: string) => {
    // ioredis loads only when REDIS_URL is set
    const { Redis } = await import('ioredis');
    const common = { connectTimeout: 1_000, retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000) };
    // publishing never waits on an outage; the subscriber queues its SUBSCRIBE until it connects, and resubscribes by itself
    const publisher: Redis = new Redis(url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
    const subscriber: Redis = new Redis(url, common);
    for (const client of [publisher, subscriber]) {
      client.on('error', lost);
      client.on('ready', () => {
        if (down) options.logger.info('Redis is back: live session updates reach every instance again');
        down = false;
      });
    }
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== CHANNEL) return;
      let message: Envelope;
      try {
        message = JSON.parse(text) as Envelope;
      } catch {
        return;
      }
      if (message.from !== instance && typeof message.event?.sessionId === 'string') deliver(message.event);
    });
    const subscribed = subscriber.subscribe(CHANNEL).then(
      () => undefined,
      (error: unknown) => options.logger.warn({ err: error }, 'live sessions: could not subscribe to Redis'),
    );
    return { publisher, subscriber, subscribed };
  };
  const clients = connect(options.redisUrl);
  clients.catch((error: unknown) => options.logger.error({ err: error }, 'live sessions: Redis client failed to start'));
  const ready = clients.then(
    ({ subscribed }) => Promise.race([subscribed, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]),
    () => undefined,
  );

  return {
    publish(event) {
      deliver(event);
      clients.then(({ publisher }) => publisher.publish(CHANNEL, JSON.stringify({ from: instance, event } satisfies Envelope))).catch(lost);
    },
    listen,
    ready: () => ready,
    async close() {
      closing = true;
      const started = await clients.catch(() => undefined);
      for (const client of started ? [started.publisher, started.subscriber] : []) {
        await client.quit().catch(() => undefined);
        client.disconnect();
      }
    },
  };
}
