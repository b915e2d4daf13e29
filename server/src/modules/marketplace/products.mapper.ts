import type { Product, ProductImage, ProductLicense, ProductPreview } from '@riff/contract';
import type {
  ProductBundle,
  ProductImageRow,
  ProductLicenseRow,
  ProductPreviewRow,
  ProductRow,
} from './products.repository.js';
import { withModerationState } from '../../platform/access/moderation.js';

/** Integer cents to major units (1999 → 19.99): cents are exact, the division is only for display. */
export const centsToPrice = (cents: number) => Number(cents) / 100;
/** Major units with at most 2 decimals (validated by the contract) to integer cents. */
export const priceToCents = (price: number) => Math.round(price * 100);

/** The URL paths that serve a product's media (under /api/v1). */
export const imagePath = (productId: string, imageId: string) =>
  `/api/v1/marketplace/products/${productId}/images/${imageId}`;
export const previewPath = (productId: string, previewId: string) =>
  `/api/v1/marketplace/products/${productId}/previews/${previewId}`;

/** avg_rating: null while there is no review, else the mean rounded to 2 decimals. */
export function averageRating(product: Pick<ProductRow, 'review_count' | 'rating_sum'>): number | null {
  if (product.review_count <= 0) return null;
  return Math.round((product.rating_sum * 100) / product.review_count) / 100;
}

export function toLicenseDto(row: ProductLicenseRow): ProductLicense {
  return {
    id: row.id,
    product_id: row.product_id,
    license_type: row.license_type,
    price_cents: Number(row.price_cents),
    terms_text: row.terms_text,
    is_available: row.is_available,
    created_at: row.created_at.toISOString(),
  };
}

export function toImageDto(row: ProductImageRow, baseUrl: string): ProductImage {
  return {
    id: row.id,
    product_id: row.product_id,
    url: `${baseUrl}${imagePath(row.product_id, row.id)}`,
    content_type: row.content_type,
    width: row.width,
    height: row.height,
    sort_order: row.sort_order,
    created_at: row.created_at.toISOString(),
  };
}

export function toPreviewDto(row: ProductPreviewRow, baseUrl: string): ProductPreview {
  const path = previewPath(row.product_id, row.id);
  return {
    id: row.id,
    product_id: row.product_id,
    file_path: path,
    url: `${baseUrl}${path}`,
    duration_sec: row.duration_sec,
    created_at: row.created_at.toISOString(),
  };
}

export function toProductDto({ product, licenses, images, previews }: ProductBundle, baseUrl: string): Product {
  return withModerationState(
    {
      id: product.id,
      seller_id: product.seller_id,
      title: product.title,
      description: product.description,
      price: centsToPrice(product.price_cents),
      currency: product.currency,
      product_type: product.product_type,
      category: product.category,
      bpm: product.bpm,
      musical_key: product.musical_key,
      license_type: product.license_type,
      status: product.status,
      track_id: product.track_id,
      avg_rating: averageRating(product),
      review_count: product.review_count,
      images: images.map((row) => toImageDto(row, baseUrl)),
      previews: previews.map((row) => toPreviewDto(row, baseUrl)),
      licenses: licenses.map(toLicenseDto),
      file:
        product.file_key && product.file_name
          ? {
              filename: product.file_name,
              size: Number(product.file_size ?? 0),
              content_type: product.file_content_type ?? 'application/octet-stream',
            }
          : null,
      created_at: product.created_at.toISOString(),
      updated_at: product.updated_at.toISOString(),
    },
    product,
  );
}
