import { z } from 'zod';
import { ClientTimestampSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { CurrencySchema } from './products.schemas.js';

/** A promo code as typed by a buyer: letters, digits, - and _, 3–50 characters; compared without case. */
export const PromoCodeTextSchema = z
  .string()
  .trim()
  .min(3)
  .max(50)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _');

export const PROMO_MAX_AMOUNT_OFF_CENTS = 100_000_000;
export const PROMO_MAX_PRODUCTS = 100;

export const PromoCodeSchema = named(
  'PromoCode',
  z.object({
    id: UuidSchema,
    code: z.string().describe('As the seller wrote it; buyers may type it in any case'),
    percent_off: z
      .number()
      .int()
      .min(1)
      .max(100)
      .nullable()
      .describe('Whole percent off each eligible item; null for an amount-off code'),
    amount_off_cents: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe('Integer cents off the eligible items together; null for a percent-off code'),
    currency: CurrencySchema.nullable().describe(
      'The currency of amount_off_cents (only items in it are eligible); null for a percent-off code',
    ),
    product_ids: z
      .array(UuidSchema)
      .describe('The seller’s products it applies to; empty: all of the seller’s products'),
    max_redemptions: z.number().int().min(1).nullable().describe('Completed orders that may use it; null: no limit'),
    redemption_count: z.number().int().min(0).describe('Completed orders that used it'),
    expires_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  }),
);
export type PromoCode = z.infer<typeof PromoCodeSchema>;

export const CreatePromoCodeRequestSchema = named(
  'CreatePromoCodeRequest',
  z
    .object({
      code: PromoCodeTextSchema.describe(
        '3–50 letters, digits, - or _; unique per seller without regard to case (409 CONFLICT otherwise)',
      ),
      percent_off: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe('1–100; exactly one of percent_off and amount_off_cents'),
      amount_off_cents: z
        .number()
        .int()
        .min(1)
        .max(PROMO_MAX_AMOUNT_OFF_CENTS)
        .optional()
        .describe('Integer cents off the eligible items together; exactly one of percent_off and amount_off_cents'),
      currency: CurrencySchema.optional().describe(
        'With amount_off_cents only (default USD); not allowed with percent_off',
      ),
      product_ids: z
        .array(UuidSchema)
        .max(PROMO_MAX_PRODUCTS)
        .optional()
        .describe(
          'Products of the caller’s own it applies to (400 for any other); absent or empty: all of the caller’s products',
        ),
      max_redemptions: z.number().int().min(1).max(1_000_000_000).optional(),
      expires_at: ClientTimestampSchema.optional().describe('RFC 3339; must be in the future (400 otherwise)'),
    })
    .superRefine((value, ctx) => {
      const percent = value.percent_off !== undefined;
      const amount = value.amount_off_cents !== undefined;
      if (percent === amount) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['percent_off'],
          message: 'exactly one of percent_off and amount_off_cents is required',
        });
      }
      if (percent && value.currency !== undefined) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['currency'], message: 'goes with amount_off_cents only' });
      }
    }),
);
export type CreatePromoCodeRequest = z.infer<typeof CreatePromoCodeRequestSchema>;

export const PromoCodeListSchema = named('PromoCodeList', z.array(PromoCodeSchema));
