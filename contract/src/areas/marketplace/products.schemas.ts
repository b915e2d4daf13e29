import { z } from 'zod';
import { queryInt, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import {
  type LICENSE_TYPE_ALIASES,
  LICENSE_TYPES,
  PRODUCT_CATEGORIES,
  PRODUCT_LICENSE_TYPES,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
} from './marketplace-enums.schemas.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';

/** Limits: title 3 to 200, description at most 2000, bpm 1 to 300, musical_key at most 10. */
export const PRODUCT_TITLE_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 2000;
/** Prices (major units) up to this; cents up to 100 times it. */
export const PRODUCT_PRICE_MAX = 1_000_000;
export const PRODUCT_LICENSE_TERMS_MAX = 10_000;
/** Products a seller may hold (every status): the next is 400 LIMIT_REACHED. */
export const PRODUCTS_PER_SELLER_MAX = 500;
export const PRODUCT_IMAGES_MAX = 10;
export const PRODUCT_PREVIEWS_MAX = 5;
/** A stored preview is at most 60 seconds (a longer upload is cut). */
export const PRODUCT_PREVIEW_MAX_SECONDS = 60;
export const PRODUCT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The audio of a preview upload, before it is cut (like a track upload). */
export const PRODUCT_PREVIEW_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;
/** A pack's deliverable, zip or audio, at most 2 GiB. */
export const PRODUCT_FILE_MAX_BYTES = 2 * 1024 * 1024 * 1024;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, e.g. USD')
  .refine((code) => CURRENCIES.has(code), 'must be an ISO 4217 currency code')
  .describe('ISO 4217 currency code');

/** Major units with at most two decimals (19.99), so that cents are exact. */
const price = z
  .number()
  .min(0)
  .max(PRODUCT_PRICE_MAX)
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most 2 decimals')
  .describe('In major units (19.99), at most 2 decimals');

const title = z.string().trim().min(3).max(PRODUCT_TITLE_MAX);
const description = z.string().max(PRODUCT_DESCRIPTION_MAX);
const bpm = z.number().int().min(1).max(300);
const musicalKey = z.string().trim().min(1).max(10);
const priceCents = z
  .number()
  .int()
  .min(0)
  .max(PRODUCT_PRICE_MAX * 100)
  .describe('Integer cents');
const termsText = z.string().max(PRODUCT_LICENSE_TERMS_MAX);

/** Both spellings: standard/commercial are read as basic/premium (LICENSE_TYPE_ALIASES). */
export const LICENSE_TYPE_INPUTS = ['standard', 'commercial', ...LICENSE_TYPES] as const satisfies ReadonlyArray<
  keyof typeof LICENSE_TYPE_ALIASES | (typeof LICENSE_TYPES)[number]
>;
// The enums are named, so a generated client has one type for each (and a nullable one refers to it).
const licenseTypeInput = named(
  'LicenseTypeInput',
  z
    .enum(LICENSE_TYPE_INPUTS)
    .describe('standard → basic, commercial → premium, exclusive; replies spell basic, premium, exclusive'),
);
export const ProductLicenseTypeSchema = named('ProductLicenseType', z.enum(PRODUCT_LICENSE_TYPES));
const categorySchema = named('ProductCategory', z.enum(PRODUCT_CATEGORIES));
const licenseTypeSchema = named('LicenseType', z.enum(LICENSE_TYPES));

export const ProductLicenseSchema = named(
  'ProductLicense',
  z.object({
    id: UuidSchema,
    product_id: UuidSchema,
    license_type: ProductLicenseTypeSchema,
    price_cents: z.number().int().min(0),
    terms_text: z.string().nullable(),
    is_available: z.boolean().describe('false once an exclusive license of the product is sold'),
    created_at: TimestampSchema,
  }),
);
export type ProductLicense = z.infer<typeof ProductLicenseSchema>;

export const ProductImageSchema = named(
  'ProductImage',
  z.object({
    id: UuidSchema,
    product_id: UuidSchema,
    url: z.string().url().describe('Absolute URL serving the image (re-encoded, without metadata)'),
    content_type: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    sort_order: z.number().int(),
    created_at: TimestampSchema,
  }),
);
export type ProductImage = z.infer<typeof ProductImageSchema>;

export const ProductPreviewSchema = named(
  'ProductPreview',
  z.object({
    id: UuidSchema,
    product_id: UuidSchema,
    file_path: z.string().describe('The URL path serving the preview (under /api/v1)'),
    url: z.string().url().describe('The absolute URL of file_path'),
    duration_sec: z.number().int().min(0).max(PRODUCT_PREVIEW_MAX_SECONDS),
    created_at: TimestampSchema,
  }),
);
export type ProductPreview = z.infer<typeof ProductPreviewSchema>;

export const ProductFileSchema = named(
  'ProductFile',
  z
    .object({ filename: z.string(), size: z.number().int().min(0), content_type: z.string() })
    .describe('The deliverable of a pack or service'),
);

export const ProductSchema = named(
  'Product',
  z.object({
    id: UuidSchema,
    seller_id: UuidSchema,
    title: z.string(),
    description: z.string().nullable(),
    price: z.number().min(0).describe('In major units'),
    currency: z.string(),
    product_type: z.enum(PRODUCT_TYPES),
    category: categorySchema.nullable(),
    bpm: z.number().int().nullable(),
    musical_key: z.string().nullable(),
    license_type: licenseTypeSchema.nullable(),
    status: z.enum(PRODUCT_STATUSES),
    track_id: UuidSchema.nullable(),
    avg_rating: z
      .number()
      .min(1)
      .max(5)
      .nullable()
      .describe('Mean of the reviews’ ratings (2 decimals); null while there are none'),
    review_count: z.number().int().min(0),
    images: z.array(ProductImageSchema),
    previews: z.array(ProductPreviewSchema),
    licenses: z.array(ProductLicenseSchema),
    // the uploaded deliverable (pack or service); a track product delivers its track's original: null here
    file: ProductFileSchema.nullable(),
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Product = z.infer<typeof ProductSchema>;

export const LicenseInputSchema = named(
  'ProductLicenseInput',
  z.object({
    license_type: ProductLicenseTypeSchema,
    price_cents: priceCents,
    terms_text: termsText.nullable().optional(),
  }),
);

const licenses = z
  .array(LicenseInputSchema)
  .max(PRODUCT_LICENSE_TYPES.length)
  .refine(
    (items) => new Set(items.map((item) => item.license_type)).size === items.length,
    'each license_type at most once',
  )
  .describe('One per license_type');

export const CreateProductRequestSchema = named(
  'CreateProductRequest',
  z.object({
    title,
    price,
    currency: CurrencySchema.optional().describe('ISO 4217, default USD'),
    product_type: z.enum(PRODUCT_TYPES),
    description: description.optional(),
    category: categorySchema.optional(),
    license_type: licenseTypeInput.optional(),
    bpm: bpm.optional(),
    musical_key: musicalKey.optional(),
    track_id: UuidSchema.optional().describe(
      'Required for product_type track: one of your tracks; not allowed for other types',
    ),
    licenses: licenses.optional(),
  }),
);
export type CreateProductRequest = z.infer<typeof CreateProductRequestSchema>;

export const UpdateProductRequestSchema = named(
  'UpdateProductRequest',
  z.object({
    title: title.optional(),
    description: description.nullable().optional().describe('null clears it'),
    price: price.optional(),
    currency: CurrencySchema.optional(),
    category: categorySchema.nullable().optional(),
    license_type: licenseTypeInput.nullable().optional(),
    bpm: bpm.nullable().optional(),
    musical_key: musicalKey.nullable().optional(),
    status: z
      .enum(PRODUCT_STATUSES)
      .optional()
      .describe(
        'Moves: draft → active, active → archived, archived → active, draft → archived; others 400 INVALID_TRANSITION',
      ),
    licenses: licenses.optional().describe('Replaces every license of the product'),
  }),
);
export type UpdateProductRequest = z.infer<typeof UpdateProductRequestSchema>;

export const CreateLicenseRequestSchema = named(
  'CreateProductLicenseRequest',
  z.object({
    license_type: ProductLicenseTypeSchema,
    price_cents: priceCents,
    terms_text: termsText.nullable().optional(),
  }),
);
export type CreateLicenseRequest = z.infer<typeof CreateLicenseRequestSchema>;

export const UpdateLicenseRequestSchema = named(
  'UpdateProductLicenseRequest',
  z.object({ price_cents: priceCents.optional(), terms_text: termsText.nullable().optional() }),
);
export type UpdateLicenseRequest = z.infer<typeof UpdateLicenseRequestSchema>;

const queryPrice = z.coerce.number().min(0).max(PRODUCT_PRICE_MAX);

export const ProductListQuerySchema = z.object({
  status: z
    .enum(PRODUCT_STATUSES)
    .optional()
    .describe(
      'Others see active products only (another status gives an empty list); a seller filtering seller_id=self sees any',
    ),
  seller_id: UuidSchema.optional(),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe(
      'Words in the title or description, through the search engine (accents ignored, typos tolerated): best match first, then newest',
    ),
  type: z.enum(PRODUCT_TYPES).optional(),
  min_price: queryPrice.optional().describe('In major units'),
  max_price: queryPrice.optional().describe('In major units'),
  page: queryInt(1, 1_000_000).default(1).describe('Page number, from 1'),
  limit: queryInt(1, 100).default(20).describe('Items per page, at most 100'),
});
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;

export const ProductListSchema = named('ProductList', z.array(ProductSchema));

export const ProductRemovalSchema = named(
  'ProductRemoval',
  z.object({
    id: UuidSchema,
    result: z
      .enum(['deleted', 'archived'])
      .describe('archived when the product has orders (they keep it as a record), else deleted'),
    // the archived product; null when deleted
    product: ProductSchema.nullable(),
  }),
);
export type ProductRemoval = z.infer<typeof ProductRemovalSchema>;

export const ProductLicenseParamsSchema = z.object({ id: UuidSchema, licenseId: UuidSchema });
export const ProductImageParamsSchema = z.object({ id: UuidSchema, imageId: UuidSchema });
export const ProductPreviewParamsSchema = z.object({ id: UuidSchema, previewId: UuidSchema });
