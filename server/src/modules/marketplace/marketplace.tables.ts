import type {
  LicenseType,
  ModerationStatus,
  OrderStatus,
  PaymentProviderName,
  PaymentStatus,
  ProductCategory,
  ProductLicenseType,
  ProductStatus,
  ProductType,
} from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Json, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';
import type { ModerationColumns } from '../../platform/access/moderation.js';

/** Integer cents in bigint columns, read as numbers (platform/db/database.ts parses int8). */
export type Cents = number;
/** An integer counter that updates may set with an expression. */
type Counter = Generated<number>;

export interface ProductsTable extends ModerationColumns {
  id: Generated<string>;
  seller_id: string;
  title: string;
  description: string | null;
  price_cents: Cents;
  currency: Generated<string>;
  product_type: ProductType;
  category: ProductCategory | null;
  bpm: number | null;
  musical_key: string | null;
  license_type: LicenseType | null;
  status: Generated<ProductStatus>;
  track_id: string | null;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  file_content_type: string | null;
  review_count: Counter;
  rating_sum: Counter;
  sales_count: Counter;
  download_count: Counter;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ProductLicensesTable {
  id: Generated<string>;
  product_id: string;
  license_type: ProductLicenseType;
  price_cents: Cents;
  terms_text: string | null;
  is_available: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ProductImagesTable {
  id: Generated<string>;
  product_id: string;
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
  sort_order: number;
  created_at: CreatedAt;
}

export interface ProductPreviewsTable {
  id: Generated<string>;
  product_id: string;
  storage_key: string;
  content_type: string;
  byte_size: Cents;
  duration_sec: number;
  created_at: CreatedAt;
}

export interface PromoCodesTable {
  id: Generated<string>;
  seller_id: string;
  code: string;
  code_key: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  currency: string | null;
  max_redemptions: number | null;
  redemption_count: Counter;
  expires_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface PromoCodeProductsTable {
  promo_code_id: string;
  product_id: string;
}

export interface OrdersTable {
  id: Generated<string>;
  buyer_id: string | null;
  status: Generated<OrderStatus>;
  payment_status: Generated<PaymentStatus>;
  currency: string;
  subtotal_cents: Cents;
  discount_amount_cents: Generated<number>;
  total_cents: Cents;
  promo_code_id: string | null;
  payment_provider: PaymentProviderName;
  payment_session_id: string | null;
  payment_provider_payment_id: string | null;
  checkout_url: string | null;
  payment_expires_at: Timestamp | null;
  failure_reason: string | null;
  completed_at: Timestamp | null;
  refund_deadline: Timestamp | null;
  refunded_at: Timestamp | null;
  refund_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  product_id: string;
  seller_id: string | null;
  license_id: string | null;
  license_type: ProductLicenseType | null;
  title: string;
  price_cents: Cents;
  discount_cents: Generated<number>;
  created_at: CreatedAt;
}

export interface ExclusiveHoldsTable {
  product_id: string;
  order_id: string;
  sold: Generated<boolean>;
  expires_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface LicenseGrantsTable {
  id: Generated<string>;
  order_item_id: string;
  order_id: string;
  buyer_id: string;
  product_id: string;
  license_type: ProductLicenseType | null;
  granted_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  user_id: string;
  scope: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface PaymentEventsTable {
  provider: PaymentProviderName;
  event_id: string;
  type: string;
  order_id: string | null;
  received_at: CreatedAt;
}

export interface ProductReviewsTable {
  id: Generated<string>;
  product_id: string;
  author_id: string;
  rating: number;
  comment: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface InvoiceCountersTable {
  year: number;
  last_number: number;
}

/** A party of an invoice as at issue (the contract's InvoiceParty). */
export interface InvoicePartySnapshot {
  id: string | null;
  name: string;
  email: string | null;
}

export interface InvoicesTable {
  id: Generated<string>;
  order_id: string;
  number: string;
  issued_at: CreatedAt;
  buyer: Json<InvoicePartySnapshot> | null;
  seller: Json<InvoicePartySnapshot> | null;
}

export interface ProductDownloadsTable {
  id: Generated<string>;
  product_id: string;
  user_id: string | null;
  created_at: CreatedAt;
}

/** What each (status, product_type) gained or lost, appended by triggers (migration 0017); their sum is the count. */
export interface ProductCountDeltasTable {
  status: ProductStatus;
  product_type: ProductType;
  moderation_status: ModerationStatus;
  delta: number;
}

/** The marketplace's tables: products, promo codes, orders, licenses, reviews, invoices. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    products: ProductsTable;
    product_count_deltas: ProductCountDeltasTable;
    product_licenses: ProductLicensesTable;
    product_images: ProductImagesTable;
    product_previews: ProductPreviewsTable;
    promo_codes: PromoCodesTable;
    promo_code_products: PromoCodeProductsTable;
    orders: OrdersTable;
    order_items: OrderItemsTable;
    exclusive_holds: ExclusiveHoldsTable;
    license_grants: LicenseGrantsTable;
    idempotency_keys: IdempotencyKeysTable;
    payment_events: PaymentEventsTable;
    product_reviews: ProductReviewsTable;
    invoice_counters: InvoiceCountersTable;
    invoices: InvoicesTable;
    product_downloads: ProductDownloadsTable;
  }
}
