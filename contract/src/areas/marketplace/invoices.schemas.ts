import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { CurrencySchema, ProductLicenseTypeSchema } from './products.schemas.js';

/** INV-<year>-<six digits>, sequential per year without gaps. */
export const InvoiceNumberSchema = z.string().regex(/^INV-\d{4}-\d{6,}$/, 'must be INV-<year>-<six digits>');

export const InvoicePartySchema = named(
  'InvoiceParty',
  z.object({
    id: UuidSchema.nullable().describe('The user; null once their account is gone (the invoice stays)'),
    name: z.string().describe('Display name or username as at issue'),
    email: z.string().nullable().describe('Shown for the buyer; null for the seller'),
  }),
);
export type InvoiceParty = z.infer<typeof InvoicePartySchema>;

export const InvoiceLineSchema = named(
  'InvoiceLine',
  z.object({
    product_id: UuidSchema,
    title: z.string(),
    license_type: ProductLicenseTypeSchema.nullable(),
    price_cents: z.number().int().min(0).describe('The price copied into the order, integer cents'),
    discount_cents: z.number().int().min(0).describe('This line’s share of the promo discount'),
    total_cents: z.number().int().min(0).describe('price_cents − discount_cents'),
  }),
);
export type InvoiceLine = z.infer<typeof InvoiceLineSchema>;

/** The invoice of a completed or refunded order; money in integer cents. */
export const InvoiceSchema = named(
  'Invoice',
  z.object({
    number: InvoiceNumberSchema,
    issued_at: TimestampSchema,
    seller: InvoicePartySchema,
    buyer: InvoicePartySchema,
    lines: z.array(InvoiceLineSchema).min(1),
    discount_cents: z.number().int().min(0),
    total_cents: z.number().int().min(0),
    currency: CurrencySchema,
  }),
);
export type Invoice = z.infer<typeof InvoiceSchema>;

/** GET /marketplace/orders/{id}/invoice with Accept: application/json: `{invoice}`, not enveloped. */
export const InvoiceReplySchema = named('InvoiceReply', z.object({ invoice: InvoiceSchema }));
