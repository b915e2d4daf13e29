import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import {
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PRODUCT_LICENSE_TYPES,
} from './marketplace-enums.schemas.js';
import { ProductLicenseTypeSchema } from './products.schemas.js';

/** Orders, payments, refunds and downloads. */
export const ORDER_MAX_ITEMS = 50;
export const PROMO_CODE_MAX = 50;
/** The buyer's 14-day refund window (refund_deadline = completion + 14 days). */
export const REFUND_WINDOW_DAYS = 14;
/** How long a pending order waits for its payment before it expires (and releases what it holds). */
export const PAYMENT_WINDOW_MINUTES = 30;
/** A download URL is valid this long (5 minutes), and needs no other credential. */
export const DOWNLOAD_URL_TTL_SECONDS = 300;
export const SANDBOX_OUTCOMES = ['succeed', 'fail'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** Major units, copied at creation: 19.99 (exactly the cents / 100). */
const MajorUnits = z.number().min(0).describe('Major units (cents / 100), e.g. 19.99');
const Cents = z.number().int().min(0);

export const OrderItemSchema = named(
  'OrderItem',
  z
    .object({
      id: UuidSchema,
      order_id: UuidSchema,
      product_id: UuidSchema,
      title: z.string().describe('The product’s title when the order was made'),
      // a named enum keeps no description of its own here (it would become the enum's): see the item's
      license_type: ProductLicenseTypeSchema.nullable(),
      price: MajorUnits,
      price_cents: Cents,
      discount_cents: Cents.describe('This item’s share of the order’s discount'),
    })
    .describe(
      'A product bought. license_type: the license bought; null when the product had none and was bought at its price.',
    ),
);

export const OrderPaymentSchema = named(
  'OrderPayment',
  z.object({
    provider: z.enum(PAYMENT_PROVIDERS),
    checkout_url: z
      .string()
      .url()
      .nullable()
      .describe('Where the buyer pays, while the order waits for payment; else null'),
    expires_at: TimestampSchema.nullable().describe('When a pending order expires unpaid'),
  }),
);

export const OrderSchema = named(
  'Order',
  z.object({
    id: UuidSchema,
    buyer_id: UuidSchema.nullable().describe(
      'null once the buyer’s account is deleted (orders are kept as financial records)',
    ),
    items: z.array(OrderItemSchema),
    total_amount: MajorUnits.describe('What the buyer pays, in major units: subtotal minus discount'),
    subtotal_cents: Cents,
    total_cents: Cents,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217; one currency per order'),
    discount_amount_cents: Cents,
    promo_code_id: UuidSchema.nullable(),
    status: z.enum(ORDER_STATUSES),
    payment_status: z.enum(PAYMENT_STATUSES),
    payment_provider_payment_id: z.string().nullable(),
    payment_intent: z.string().nullable().describe('Legacy: the provider’s checkout id'),
    payment: OrderPaymentSchema,
    refund_deadline: TimestampSchema.nullable().describe('Completion + 14 days; null until completed'),
    completed_at: TimestampSchema.nullable(),
    refunded_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Order = z.infer<typeof OrderSchema>;
export const OrderListSchema = named('OrderList', z.array(OrderSchema));

export const CreateOrderItemSchema = named(
  'CreateOrderItem',
  z.object({
    product_id: UuidSchema,
    license_type: z
      .enum(PRODUCT_LICENSE_TYPES)
      .optional()
      .describe('Without it: the product’s cheapest license, or its price when it has none'),
  }),
);

export const CreateOrderRequestSchema = named(
  'CreateOrderRequest',
  z.object({
    items: z.array(CreateOrderItemSchema).min(1).max(ORDER_MAX_ITEMS),
    promo_code: z
      .string()
      .trim()
      .min(1)
      .max(PROMO_CODE_MAX)
      .optional()
      .describe('A code of the items’ seller (case-insensitive)'),
  }),
);
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .describe(
      'The same key and body within 24 h return the first reply; the same key with another body is 409 CONFLICT',
    ),
});

export const RefundOrderRequestSchema = named(
  'RefundOrderRequest',
  z.object({ reason: z.string().trim().max(500).optional() }),
);
export type RefundOrderRequest = z.infer<typeof RefundOrderRequestSchema>;

export const ProductIdParamsSchema = z.object({ product_id: UuidSchema });

export const DownloadLinkSchema = named(
  'DownloadLink',
  z.object({
    url: z.string().url().describe('A signed URL valid 5 minutes; it needs no other credential'),
    expires_at: TimestampSchema,
    filename: z.string(),
  }),
);

export const DownloadFileQuerySchema = z.object({
  user: UuidSchema.describe('Part of the signed URL'),
  expires: z.coerce.number().int().min(0).max(99_999_999_999).describe('Part of the signed URL (unix seconds)'),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/)
    .describe('Part of the signed URL'),
});

export const SandboxCheckoutParamsSchema = z.object({
  paymentId: z.string().regex(/^sbx_[a-f0-9]{32}$/, 'must be a sandbox payment id'),
});
export const SandboxCheckoutQuerySchema = z.object({
  outcome: z.enum(SANDBOX_OUTCOMES).optional().describe('Without it the page shows the order and the two choices'),
});

export const PaymentWebhookRequestSchema = named(
  'PaymentWebhookEvent',
  z.object({}).passthrough().describe('The provider’s event, as the provider sends it; verified by its signature'),
);
export const PaymentWebhookReplySchema = named('PaymentWebhookReply', z.object({ received: z.literal(true) }));

export const REVIEW_COMMENT_MAX = 2000;

export const ReviewSchema = named(
  'Review',
  z.object({
    id: UuidSchema,
    product_id: UuidSchema,
    author_id: UuidSchema,
    rating: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Review = z.infer<typeof ReviewSchema>;
export const ReviewListSchema = named('ReviewList', z.array(ReviewSchema));

export const CreateReviewRequestSchema = named(
  'CreateReviewRequest',
  z.object({
    rating: z.number().int().min(1).max(5),
    comment: z.string().trim().max(REVIEW_COMMENT_MAX).optional(),
  }),
);
export type CreateReviewRequest = z.infer<typeof CreateReviewRequestSchema>;

export const ReviewParamsSchema = z.object({ id: UuidSchema, reviewId: UuidSchema });
export const ReviewListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** GET /marketplace/seller/stats. */
export const SELLER_STATS_PERIODS = ['7d', '30d', '90d', 'all'] as const;
export type SellerStatsPeriod = (typeof SELLER_STATS_PERIODS)[number];
/** How many products top_products lists. */
export const SELLER_TOP_PRODUCTS = 10;

export const SellerStatsQuerySchema = z.object({
  period: z.enum(SELLER_STATS_PERIODS).default('30d').describe('The last 7, 30 or 90 days (UTC), or all time'),
});

export const SellerStatsSchema = named(
  'SellerStats',
  z.object({
    period: z.enum(SELLER_STATS_PERIODS),
    revenue_cents_by_currency: z
      .record(z.string(), Cents)
      .describe(
        'What your items of orders completed in the period and not refunded brought, after discounts, by ISO 4217 currency',
      ),
    orders: Cents.describe('Orders with an item of yours completed in the period (those refunded since included)'),
    units_sold: Cents.describe('Your items in those orders, refunded ones left out'),
    refunds: Cents.describe('Those orders refunded since'),
    refund_rate: z.number().min(0).max(1).describe('refunds / orders (0 without orders), four decimals'),
    top_products: z
      .array(z.object({ product_id: UuidSchema, title: z.string(), units: Cents, revenue_cents: Cents }))
      .describe(`Your best-selling products of the period, most units first (at most ${SELLER_TOP_PRODUCTS})`),
    daily: z
      .array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), orders: Cents, revenue_cents: Cents }))
      .describe(
        'Per UTC day, oldest first: every day of a bounded period (empty ones with zeros); for `all`, the days with orders. revenue_cents adds up every currency',
      ),
  }),
);
export type SellerStats = z.infer<typeof SellerStatsSchema>;

export const SellerStatsReplySchema = named('SellerStatsReply', z.object({ stats: SellerStatsSchema }));
