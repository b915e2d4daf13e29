import { COUNTER_NOTICE_DAYS } from '@riff/contract';
import type { MailMessage } from '../../platform/mail/mailer.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const utc = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** What the track's owner is told of a claim: its text, never the claimant's email. */
export interface ClaimNotice {
  trackTitle: string;
  claimantName: string | null;
  workDescription: string;
  originalUrl: string | null;
  counterDeadline: Date;
}

/** The sentence the notification and the mail start with. */
export function claimSentence(notice: Omit<ClaimNotice, 'counterDeadline'>): string {
  const by = notice.claimantName ? ` by ${notice.claimantName}` : '';
  const original = notice.originalUrl ? ` (original: ${notice.originalUrl})` : '';
  return `Your track ${notice.trackTitle} is hidden: a copyright claim was filed${by}: “${notice.workDescription}”${original}`;
}

export function claimMail(to: string, username: string, notice: ClaimNotice): MailMessage {
  const lines = [
    `Hi ${username},`,
    `${claimSentence(notice)}.`,
    `If you believe the claim is mistaken, you may file a counter-notice until ${utc(notice.counterDeadline)} ` +
      `(${COUNTER_NOTICE_DAYS} days); staff then decide. Without one, the claim is upheld: the track is removed and ` +
      'your account receives a strike.',
  ];
  return {
    to,
    template: 'copyright-claim',
    subject: 'A copyright claim against your track on Riff',
    text: `${lines.join('\n\n')}\n`,
    html:
      '<!doctype html><html><body style="font-family:sans-serif">' +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      '</body></html>',
  };
}
