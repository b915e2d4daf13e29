import type { SanctionKind } from '@riff/contract';
import type { MailMessage } from '../../platform/mail/mailer.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const utc = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** What the account is told about a sanction, or its end. */
export type SanctionNotice =
  | { kind: Extract<SanctionKind, 'warn'>; reason: string }
  | { kind: Extract<SanctionKind, 'suspend'>; reason: string; until: Date | null; appealUrl: string }
  | { kind: Extract<SanctionKind, 'ban'>; reason: string; appealUrl: string }
  | { kind: 'unsuspend' | 'unban' };

/** The one sentence a notification and a mail start with. */
export function sanctionSentence(notice: SanctionNotice): string {
  switch (notice.kind) {
    case 'warn':
      return `You received a warning from the moderators: ${notice.reason}`;
    case 'suspend':
      return `Your account is suspended ${notice.until ? `until ${utc(notice.until)}` : 'until an admin lifts it'}: ${notice.reason}`;
    case 'ban':
      return `Your account is banned: ${notice.reason}`;
    case 'unsuspend':
      return 'Your account’s suspension has ended: you can sign in again';
    case 'unban':
      return 'Your account’s ban was lifted: you can sign in again';
  }
}

const SUBJECTS: Record<SanctionNotice['kind'], string> = {
  warn: 'A warning about your Riff account',
  suspend: 'Your Riff account is suspended',
  ban: 'Your Riff account is banned',
  unsuspend: 'Your Riff account is active again',
  unban: 'Your Riff account is active again',
};

/**
 * The mail to the sanctioned account. A suspension's and a ban's carry the one-time appeal link:
 * the account cannot sign in to appeal any other way.
 */
export function sanctionMail(to: string, username: string, notice: SanctionNotice): MailMessage {
  const appealUrl = 'appealUrl' in notice ? notice.appealUrl : undefined;
  const lines = [
    `Hi ${username},`,
    `${sanctionSentence(notice)}.`,
    ...(appealUrl
      ? ['If you believe this is a mistake, you may appeal once through this link (it works a single time):']
      : notice.kind === 'warn'
        ? ['You may appeal it from your account’s standing.']
        : []),
  ];
  return {
    to,
    template: `sanction-${notice.kind}`,
    subject: SUBJECTS[notice.kind],
    text: `${lines.join('\n\n')}\n${appealUrl ? `\n${appealUrl}\n` : ''}`,
    html:
      '<!doctype html><html><body style="font-family:sans-serif">' +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      (appealUrl ? `<p><a href="${escapeHtml(appealUrl)}">${escapeHtml(appealUrl)}</a></p>` : '') +
      '</body></html>',
  };
}
