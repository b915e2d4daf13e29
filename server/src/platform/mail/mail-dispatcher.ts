import type { Logger } from 'pino';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Sends mail off the request path: replies do not wait on (or reveal, by their timing) a mail
 * being sent. A failed send is logged without its body. drain() waits for what is under way.
 */
export interface MailDispatcher {
  dispatch(message: MailMessage): void;
  drain(): Promise<void>;
}

export function createMailDispatcher(mailer: Mailer, logger: Logger): MailDispatcher {
  const pending = new Set<Promise<void>>();
  return {
    dispatch(message) {
      const sending = mailer
        .send(message)
        .catch((error: unknown) => logger.error({ err: error, template: message.template }, 'mail not sent'))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async drain() {
      await Promise.all([...pending]);
    },
  };
}
