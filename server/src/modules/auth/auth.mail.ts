import type { MailMessage } from '../../platform/mail/mailer.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

function message(to: string, template: string, subject: string, lines: string[], link?: string): MailMessage {
  const text = link ? `${lines.join('\n\n')}\n\n${link}\n` : `${lines.join('\n\n')}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '') +
    `</body></html>`;
  return { to, template, subject, text, html };
}

export function verificationMail(to: string, username: string, appBaseUrl: string, token: string): MailMessage {
  const link = `${appBaseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return message(
    to,
    'verify-email',
    'Confirm your Riff email address',
    [`Hi ${username},`, 'Confirm your email address to start using Riff. The link is valid for 24 hours.'],
    link,
  );
}

export function passwordResetMail(to: string, username: string, appBaseUrl: string, token: string): MailMessage {
  const link = `${appBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return message(
    to,
    'password-reset',
    'Reset your Riff password',
    [
      `Hi ${username},`,
      'Someone asked to reset your Riff password. The link is valid for 1 hour. If it was not you, ignore this mail.',
    ],
    link,
  );
}

export function passwordChangedMail(to: string, username: string, at: Date): MailMessage {
  return message(to, 'password-changed', 'Your Riff password was changed', [
    `Hi ${username},`,
    `The password of your Riff account was changed on ${at.toISOString().replace('T', ' at ').slice(0, 22)} UTC. Every other session has been signed out.`,
    'If this was not you, reset your password now with "Forgot password" and review your account.',
  ]);
}
