import type { DbScope } from '../../platform/db/transactions.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { MailMessage } from '../../platform/mail/mailer.js';
import type { AccountContact } from '../users/people-reader.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { NotificationRow } from './notifications.tables.js';

/** Users mailed per batch; the job goes on batch after batch until nobody is due. */
const USERS_PER_BATCH = 200;
/** Lines of one digest; the rest are counted. */
const LINES_SHOWN = 50;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** One mail for the day: each notification the user asked to get by mail, oldest first. */
export function digestMail(
  contact: AccountContact & { email: string },
  rows: readonly NotificationRow[],
  appBaseUrl: string,
): MailMessage {
  const shown = rows.slice(0, LINES_SHOWN).map((row) => row.message);
  const more = rows.length - shown.length;
  const lines = [
    `Hi ${contact.username},`,
    `Here is what happened on Riff since your last digest (${rows.length} notification${rows.length === 1 ? '' : 's'}):`,
    ...shown.map((line) => `• ${line}`),
    ...(more > 0 ? [`…and ${more} more.`] : []),
    'Choose what comes by mail under notifications in your preferences.',
  ];
  const link = `${appBaseUrl}/notifications`;
  return {
    to: contact.email,
    template: 'notification-digest',
    subject: `Your Riff digest: ${rows.length} notification${rows.length === 1 ? '' : 's'}`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html:
      `<!doctype html><html><body style="font-family:sans-serif">` +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></body></html>`,
  };
}

/**
 * The daily mail digest: every user with notifications due by mail gets one mail listing them,
 * and they are marked mailed in the same unit of work as the mail is queued (a failure leaves
 * them due for the next run; a mail is never sent twice for them).
 */
export class NotificationDigest {
  constructor(
    private readonly deps: {
      scope: DbScope;
      notifications: NotificationsRepository;
      mail: MailQueue;
      contact(userId: string): Promise<AccountContact | undefined>;
      appBaseUrl: string;
    },
  ) {}

  /** Mails every user due; returns how many mails were queued. */
  async run(): Promise<number> {
    let mailed = 0;
    for (;;) {
      const users = await this.deps.notifications.usersWithEmailDue(USERS_PER_BATCH);
      if (users.length === 0) return mailed;
      for (const userId of users) {
        await this.deps.scope.transaction(async () => {
          const rows = await this.deps.notifications.takeEmailDue(userId);
          const contact = await this.deps.contact(userId);
          if (!contact?.email || rows.length === 0) return;
          await this.deps.mail.send(digestMail({ ...contact, email: contact.email }, rows, this.deps.appBaseUrl));
          mailed++;
        });
      }
    }
  }
}
