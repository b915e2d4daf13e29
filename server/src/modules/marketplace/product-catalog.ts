import type { TrackReader } from '../tracks/track-reader.js';
import type { ProductsRepository } from './products.repository.js';

/** What a product delivers to a buyer: a stored object and how to name it. */
export interface Deliverable {
  /** The storage key (ObjectStorage.get / presignedGetUrl). */
  storageKey: string;
  /** A file name for Content-Disposition (display only, never a path). */
  filename: string;
  contentType: string;
  size: number;
}

/**
 * The products part's read port for the orders part (downloads). Pricing and availability are read
 * by the orders part from the products and product_licenses tables directly; this says only what a
 * product delivers.
 */
export class ProductCatalog {
  constructor(
    private readonly products: ProductsRepository,
    /** The tracks area's read port: a track product's original audio. */
    private readonly tracks: Pick<TrackReader, 'originalFile'>,
  ) {}

  /**
   * What a buyer of the product downloads: the uploaded file of a pack or service, the original
   * audio of a track product's track (while that track exists). null for an unknown product or one
   * with nothing to deliver. It does not check who asks: the caller checks the license.
   */
  async deliverable(productId: string): Promise<Deliverable | null> {
    const product = await this.products.find(productId);
    if (!product) return null;
    if (product.product_type === 'track') {
      const original = product.track_id ? await this.tracks.originalFile(product.track_id) : undefined;
      if (!original) return null;
      return {
        storageKey: original.key,
        filename: original.filename.replace(/[\r\n"\\/]/g, '_'),
        contentType: original.contentType,
        size: original.size,
      };
    }
    if (!product.file_key) return null;
    return {
      storageKey: product.file_key,
      filename: product.file_name ?? 'product',
      contentType: product.file_content_type ?? 'application/octet-stream',
      size: Number(product.file_size ?? 0),
    };
  }
}
