import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** One named channel: what is published on it reaches every listener of every instance. */
export interface BroadcastChannel<T> {
  /** Delivers to this instance's listeners at once, and to the other instances' through Redis when there is one. */
  publish(message: T): void;
  listen(listener: (message: T) => void): void;
}

export interface Broadcaster {
  /**
   * The channel of this name (`riff:live:<name>` in Redis); `accept` keeps out what another
   * instance sent that this one cannot read (a message of an older or newer version).
   */
  channel<T>(name: string, accept: (message: unknown) => message is T): BroadcastChannel<T>;
  /** Resolves once the Redis subscriptions are in place (at once without Redis; after a second at most). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  from: string;
  message: unknown;
}

/**
 * In-process without REDIS_URL; with it, every instance publishes on Redis pub/sub and hears the
 * others (its own messages it has delivered already). Redis is an accelerator: while it is down,
 * each instance still serves its own listeners (logged once per outage). One connection publishes
 * and one subscribes, whatever the number of channels.
 */
export function createBroadcaster(options: { redisUrl?: string; logger: Logger }): Broadcaster {
  const channels = new Map<string, { accept: (message: unknown) => boolean; deliver: (message: unknown) => void }>();
  const deliverer = (name: string) => {
    const listeners: ((message: unknown) => void)[] = [];
    return {
      listeners,
      deliver(message: unknown) {
        for (const listener of listeners) {
          try {
            listener(message);
          } catch (error) {
            options.logger.error({ err: error, channel: name }, 'broadcast listener failed');
          }
        }
      },
    };
  };

  if (!options.redisUrl) {
    return {
      channel<T>(name: string, accept: (message: unknown) => message is T) {
        const { listeners, deliver } = deliverer(name);
        channels.set(name, { accept, deliver });
        return {
          publish: (message: T) => deliver(message),
          listen: (listener: (message: T) => void) => void listeners.push(listener as (message: unknown) => void),
        };
      },
      ready: async () => undefined,
      close: async () => undefined,
    };
  }

  const redisUrl = options.redisUrl;
  const instance = randomUUID();
  let closing = false;
  let down = false;
  const lost = () => {
    if (down || closing) return;
    down = true;
    options.logger.warn('Redis is unreachable: live updates reach only the clients of this instance until it is back');
  };
  const connect = async () => {
    // ioredis loads only when REDIS_URL is set
    const { Redis } = await import('ioredis');
    const common = { connectTimeout: 1_000, retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000) };
    // publishing never waits on an outage; the subscriber queues its SUBSCRIBE until it connects, and resubscribes by itself
    const publisher: Redis = new Redis(redisUrl, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
    });
    const subscriber: Redis = new Redis(redisUrl, common);
    for (const client of [publisher, subscriber]) {
      client.on('error', lost);
      client.on('ready', () => {
        if (down) options.logger.info('Redis is back: live updates reach every instance again');
        down = false;
      });
    }
    subscriber.on('message', (redisChannel: string, text: string) => {
      const channel = channels.get(redisChannel);
      if (!channel) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        return;
      }
      if (envelope?.from !== instance && channel.accept(envelope.message)) channel.deliver(envelope.message);
    });
    return { publisher, subscriber };
  };
  const clients = connect();
  clients.catch((error: unknown) => options.logger.error({ err: error }, 'broadcast: Redis client failed to start'));
  const subscriptions: Promise<void>[] = [];
  const redisName = (name: string) => `riff:live:${name}`;

  return {
    channel<T>(name: string, accept: (message: unknown) => message is T) {
      const { listeners, deliver } = deliverer(name);
      channels.set(redisName(name), { accept, deliver });
      subscriptions.push(
        clients.then(
          ({ subscriber }) =>
            subscriber.subscribe(redisName(name)).then(
              () => undefined,
              (error: unknown) =>
                options.logger.warn({ err: error, channel: name }, 'broadcast: could not subscribe to Redis'),
            ),
          () => undefined,
        ),
      );
      return {
        publish(message: T) {
          deliver(message);
          clients
            .then(({ publisher }) =>
              publisher.publish(redisName(name), JSON.stringify({ from: instance, message } satisfies Envelope)),
            )
            .catch(lost);
        },
        listen: (listener: (message: T) => void) => void listeners.push(listener as (message: unknown) => void),
      };
    },
    ready: () =>
      Promise.race([
        Promise.all(subscriptions).then(() => undefined),
        new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref()),
      ]),
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
