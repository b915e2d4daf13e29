/** Examples of the marketplace area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, EXPIRES, OTHER_USER_ID, UPDATED, USER_ID } from '../../common/common.examples.js';

const PRODUCT_ID = 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a';

const ORDER_ID = 'f0e1d2c3-b4a5-4968-8776-655443322110';

const orderItem = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  order_id: ORDER_ID,
  product_id: PRODUCT_ID,
  title: 'Night Drive stems',
  license_type: 'commercial',
  price: 19.99,
  price_cents: 1999,
  discount_cents: 200,
} as const;

const orderPayment = {
  provider: 'sandbox',
  checkout_url: 'https://riff.example.org/api/v1/marketplace/sandbox/checkout/sbx_0f9e8d7c6b5a49382716050f4e3d2c1b',
  expires_at: EXPIRES,
} as const;

export const order = {
  id: ORDER_ID,
  buyer_id: USER_ID,
  items: [orderItem],
  total_amount: 17.99,
  subtotal_cents: 1999,
  total_cents: 1799,
  currency: 'USD',
  discount_amount_cents: 200,
  promo_code_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  status: 'pending',
  payment_status: 'requires_payment',
  payment_provider_payment_id: null,
  payment_intent: 'sbx_0f9e8d7c6b5a49382716050f4e3d2c1b',
  payment: orderPayment,
  refund_deadline: null,
  completed_at: null,
  refunded_at: null,
  created_at: CREATED,
  updated_at: CREATED,
} as const;

const invoiceLine = {
  product_id: PRODUCT_ID,
  title: 'Night Drive stems',
  license_type: 'commercial',
  price_cents: 1999,
  discount_cents: 200,
  total_cents: 1799,
} as const;

const invoice = {
  number: 'INV-2026-000042',
  issued_at: UPDATED,
  seller: { id: OTHER_USER_ID, name: 'Theo Marsh', email: null },
  buyer: { id: USER_ID, name: 'Mira Okafor', email: 'mira@example.org' },
  lines: [invoiceLine],
  discount_cents: 200,
  total_cents: 1799,
  currency: 'USD',
} as const;

const sellerStats = {
  period: '7d',
  revenue_cents_by_currency: { USD: 5397 },
  orders: 4,
  units_sold: 3,
  refunds: 1,
  refund_rate: 0.25,
  top_products: [{ product_id: PRODUCT_ID, title: 'Night Drive stems', units: 3, revenue_cents: 5397 }],
  daily: [
    { date: '2026-11-15', orders: 0, revenue_cents: 0 },
    { date: '2026-11-16', orders: 1, revenue_cents: 1799 },
    { date: '2026-11-17', orders: 0, revenue_cents: 0 },
    { date: '2026-11-18', orders: 2, revenue_cents: 1799 },
    { date: '2026-11-19', orders: 0, revenue_cents: 0 },
    { date: '2026-11-20', orders: 1, revenue_cents: 1799 },
    { date: '2026-11-21', orders: 0, revenue_cents: 0 },
  ],
} as const;

const review = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  product_id: PRODUCT_ID,
  author_id: USER_ID,
  rating: 5,
  comment: 'Clean stems, great low end.',
  created_at: UPDATED,
  updated_at: UPDATED,
} as const;

const promoCode = {
  id: 'f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0',
  code: 'SUMMER25',
  percent_off: 25,
  amount_off_cents: null,
  currency: null,
  product_ids: [PRODUCT_ID],
  max_redemptions: 100,
  redemption_count: 3,
  expires_at: '2027-08-31T23:59:59.000Z',
  created_at: CREATED,
};

const productLicense = {
  id: '3e5a7c9e-1f2b-4d4e-8a6f-8b0c2d4e6f80',
  product_id: PRODUCT_ID,
  license_type: 'commercial',
  price_cents: 4999,
  terms_text: 'Unlimited streams, one commercial release',
  is_available: true,
  created_at: CREATED,
} as const;

const productImage = {
  id: '4f6b8d0f-2a3c-4e5f-9b7a-9c1d3e5f7a91',
  product_id: PRODUCT_ID,
  url: `http://127.0.0.1:8080/api/v1/marketplace/products/${PRODUCT_ID}/images/4f6b8d0f-2a3c-4e5f-9b7a-9c1d3e5f7a91`,
  content_type: 'image/jpeg',
  width: 1200,
  height: 1200,
  sort_order: 0,
  created_at: CREATED,
} as const;

const productPreview = {
  id: '5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2',
  product_id: PRODUCT_ID,
  file_path: `/api/v1/marketplace/products/${PRODUCT_ID}/previews/5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2`,
  url: `http://127.0.0.1:8080/api/v1/marketplace/products/${PRODUCT_ID}/previews/5a7c9e1a-3b4d-4f6a-8c8b-0d2e4f6a8ba2`,
  duration_sec: 60,
  created_at: CREATED,
} as const;

export const product = {
  id: PRODUCT_ID,
  seller_id: USER_ID,
  title: 'Night Drive stems',
  description: 'Stems and the full mix of Night Drive',
  price: 19.99,
  currency: 'USD',
  product_type: 'pack',
  category: 'pack',
  bpm: 92,
  musical_key: 'F#m',
  license_type: 'premium',
  status: 'active',
  track_id: null,
  avg_rating: 4.5,
  review_count: 2,
  images: [productImage],
  previews: [productPreview],
  licenses: [productLicense],
  file: { filename: 'night-drive-stems.zip', size: 48_234_496, content_type: 'application/zip' },
  created_at: CREATED,
  updated_at: UPDATED,
} as const;

export const MARKETPLACE_EXAMPLES: Record<string, unknown> = {
  PromoCode: promoCode,
  PromoCodeList: [promoCode],
  CreatePromoCodeRequest: {
    code: 'SUMMER25',
    percent_off: 25,
    product_ids: [PRODUCT_ID],
    max_redemptions: 100,
    expires_at: '2027-08-31T23:59:59.000Z',
  },
  Product: product,
  ProductLicense: productLicense,
  ProductImage: productImage,
  ProductPreview: productPreview,
  ProductFile: product.file,
  ProductList: [product],
  ProductCategory: 'pack',
  LicenseType: 'premium',
  LicenseTypeInput: 'standard',
  ProductLicenseType: 'commercial',
  // the product appears once (validators of examples read a repeated id as a second schema)
  ProductRemoval: { id: PRODUCT_ID, result: 'deleted', product: null },
  ProductLicenseInput: {
    license_type: 'commercial',
    price_cents: 4999,
    terms_text: 'Unlimited streams, one commercial release',
  },
  CreateProductRequest: {
    title: 'Night Drive stems',
    price: 19.99,
    currency: 'USD',
    product_type: 'pack',
    category: 'pack',
    license_type: 'commercial',
    bpm: 92,
    musical_key: 'F#m',
    licenses: [{ license_type: 'commercial', price_cents: 4999 }],
  },
  UpdateProductRequest: { price: 24.99, status: 'active' },
  CreateProductLicenseRequest: {
    license_type: 'exclusive',
    price_cents: 49_900,
    terms_text: 'Sole rights; the product leaves the store once sold',
  },
  UpdateProductLicenseRequest: { price_cents: 5999 },
  AddProductImageRequest: { file: 'cover.jpg' },
  AddProductPreviewRequest: { file: 'night-drive-preview.mp3' },
  PutProductFileRequest: { file: 'night-drive-stems.zip' },
  OrderItem: orderItem,
  OrderPayment: orderPayment,
  Order: order,
  OrderList: [order],
  CreateOrderItem: { product_id: PRODUCT_ID, license_type: 'commercial' },
  CreateOrderRequest: { items: [{ product_id: PRODUCT_ID, license_type: 'commercial' }], promo_code: 'SPRING10' },
  RefundOrderRequest: { reason: 'Bought the wrong license' },
  DownloadLink: {
    url: `https://riff.example.org/api/v1/marketplace/download/${PRODUCT_ID}/file?user=${USER_ID}&expires=1795778900&signature=3q9XrT2mVb8KcLw5NzYp0Hs7Ud4Ga1Ej`,
    expires_at: EXPIRES,
    filename: 'night-drive-stems.zip',
  },
  PaymentWebhookEvent: {
    id: 'evt_0f9e8d7c6b5a49382716050f4e3d2c1b_succeed',
    type: 'payment.succeeded',
    created: 1795778900,
    data: { order_id: ORDER_ID },
  },
  PaymentWebhookReply: { received: true },
  SellerStats: sellerStats,
  SellerStatsReply: { stats: sellerStats },
  Invoice: invoice,
  InvoiceLine: invoiceLine,
  InvoiceParty: invoice.buyer,
  InvoiceReply: { invoice },
  Review: review,
  ReviewList: [review],
  CreateReviewRequest: { rating: 5, comment: 'Clean stems, great low end.' },
};
