/**
 * The marketplace's enums, declared once: the contract's schemas, the table types and the tests of
 * migration 0011's CHECK constraints derive from them.
 */
export const PRODUCT_TYPES = ['track', 'pack', 'service'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const PRODUCT_CATEGORIES = ['sample', 'beat', 'preset', 'pack'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const PRODUCT_STATUSES = ['draft', 'active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Product.license_type as replies spell it. */
export const LICENSE_TYPES = ['basic', 'premium', 'exclusive'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

/** CreateProductRequest.license_type: both spellings are accepted; standard → basic, commercial → premium. */
export const LICENSE_TYPE_ALIASES = {
  standard: 'basic',
  commercial: 'premium',
  exclusive: 'exclusive',
} as const satisfies Record<string, LicenseType>;

/** A product's licenses (ProductLicense.license_type). */
export const PRODUCT_LICENSE_TYPES = ['streaming', 'personal', 'commercial', 'exclusive'] as const;
export type ProductLicenseType = (typeof PRODUCT_LICENSE_TYPES)[number];

export const ORDER_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['requires_payment', 'succeeded', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
