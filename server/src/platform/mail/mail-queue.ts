import type { SecretBox } from '../auth/secret-box.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Mail goes out through the job queue: a reply never waits on (or reveals, by its timing) the
 * mail server, a failed send is retried with backoff, and a message queued in a unit of work
 * (DbScope.transaction) exists only if it commits. Messages carry one-time links, so they are stored
 * encrypted while they wait.
 */
export interface MailQueue {
  send(message: MailMessage): Promise<void>;
}

declare module '../jobs/job-map.js' {
  interface JobMap {
    /** A message, encrypted while it waits. */
    'mail.send': { sealed: string };
  }
}

export function createMailQueue(jobs: JobQueue, mailer: Mailer, box: SecretBox): MailQueue {
  jobs.define({
    name: 'mail.send',
    retryLimit: 8,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    handle: async ({ sealed }) => mailer.send(JSON.parse(box.open(sealed)) as MailMessage),
  });
  return {
    send: (message) => jobs.enqueue('mail.send', { sealed: box.seal(JSON.stringify(message)) }),
  };
}
