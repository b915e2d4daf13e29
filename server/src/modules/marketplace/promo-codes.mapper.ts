import type { PromoCode } from '@riff/contract';
import type { PromoCodeRow } from './promo-codes.repository.js';

export function toPromoCodeDto(row: PromoCodeRow): PromoCode {
  return {
    id: row.id,
    code: row.code,
    percent_off: row.percent_off,
    amount_off_cents: row.amount_off_cents === null ? null : Number(row.amount_off_cents),
    currency: row.currency,
    product_ids: row.product_ids,
    max_redemptions: row.max_redemptions,
    redemption_count: row.redemption_count,
    expires_at: row.expires_at === null ? null : row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}
