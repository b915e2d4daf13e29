import type { MailMessage } from '../../platform/mail/mailer.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** Integer cents as a decimal amount with its currency: 1799, USD → "17.99 USD" (no floating point). */
export function formatMoney(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

/** The buyer's receipt, sent once an order completes. */
export function receiptMail(
  to: string,
  username: string,
  order: OrderRow,
  items: OrderItemRow[],
  appBaseUrl: string,
): MailMessage {
  const lines = [
    `Hi ${username},`,
    `Thank you for your order ${order.id}. Your licenses are ready: download your purchases from your orders.`,
    ...items.map(
      (item) =>
        `${item.title}${item.license_type ? ` (${item.license_type} license)` : ''}: ${formatMoney(Number(item.price_cents), order.currency)}`,
    ),
    ...(Number(order.discount_amount_cents) > 0
      ? [`Discount: -${formatMoney(Number(order.discount_amount_cents), order.currency)}`]
      : []),
    `Total paid: ${formatMoney(Number(order.total_cents), order.currency)}`,
    order.refund_deadline
      ? `You may ask for a refund until ${order.refund_deadline.toISOString().replace('T', ' ').slice(0, 16)} UTC.`
      : '',
  ].filter((line) => line !== '');
  const link = `${appBaseUrl}/orders/${order.id}`;
  return {
    to,
    template: 'order-receipt',
    subject: `Your Riff receipt (${formatMoney(Number(order.total_cents), order.currency)})`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html:
      '<!doctype html><html><body style="font-family:sans-serif">' +
      lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></body></html>`,
  };
}
