import type { FrontendLogRequest } from '@riff/contract';
import type { Logger } from 'pino';
import type { Actor } from '../../platform/access/actor.js';
import { rateLimited } from '../../platform/errors/app-error.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';

export interface FrontendLogServiceDeps {
  /** How many log entries one address may send in a window. */
  perAddress: Limiter;
}

/** Frontend log entries, written into the service's own log as lines of their own source. */
export class FrontendLogService {
  constructor(private readonly deps: FrontendLogServiceDeps) {}

  async write(actor: Actor, log: Logger, entry: FrontendLogRequest): Promise<{ received: true }> {
    const taken = await this.deps.perAddress.consume(actor.origin.ip ?? 'unknown');
    if (!taken.allowed) throw rateLimited(taken.retryAfterSeconds, `At most ${taken.limit} log entries a minute`);
    log[entry.level](
      {
        source: 'frontend',
        request_id: actor.origin.requestId,
        user_id: actor.id,
        client_timestamp: entry.timestamp,
        context: entry.context,
        data: entry.data,
      },
      entry.message,
    );
    return { received: true };
  }
}
