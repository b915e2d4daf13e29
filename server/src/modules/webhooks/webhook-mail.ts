import type { MailMessage } from '../../platform/mail/mailer.js';
import type { WebhookRow } from './webhooks.repository.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** To the owner of a webhook the service disabled. */
export function disabledMail(
  to: string,
  username: string,
  webhook: Pick<WebhookRow, 'id' | 'url'>,
  reason: string,
  appBaseUrl: string,
): MailMessage {
  const link = `${appBaseUrl}/settings/webhooks/${webhook.id}`;
  const lines = [
    `Hi ${username},`,
    `Your webhook to ${webhook.url} has been disabled. ${reason}.`,
    'Check that the receiver answers with a 2xx status within 10 seconds, then re-activate the webhook: its failure count starts again from zero.',
  ];
  return {
    to,
    template: 'webhook-disabled',
    subject: 'Your Riff webhook was disabled',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
