import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DOWNLOAD_URL_TTL_SECONDS } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { DownloadsRepository } from './downloads.repository.js';
import { productWithheld } from './products.policy.js';

export interface DownloadsServiceDeps {
  scope: DbScope;
  clock: Clock;
  storage: ObjectStorage;
  tracks: TrackReader;
  downloads: DownloadsRepository;
  /** KeyRing 'marketplace-download'. */
  key: Buffer;
  publicBaseUrl: string;
}

interface Deliverable {
  key: string;
  filename: string;
  size: number | undefined;
  contentType: string;
}

const noLicense = () => new AppError('NO_LICENSE', 'You have no license for this product: buy it first');

/** RFC 6266 attachment name: an ASCII fallback and the UTF-8 original. */
function attachment(name: string): string {
  const safe = name.replace(/[\r\n"\\/]/g, '_');
  return `attachment; filename="${safe.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

/**
 * Downloads of purchased products: a URL signed for the buyer, the product and an expiry (5
 * minutes; it needs no other credential), checked again when used (a refund stops it).
 */
export class DownloadsService {
  constructor(private readonly deps: DownloadsServiceDeps) {}

  private sign(productId: string, userId: string, expires: number): string {
    return createHmac('sha256', this.deps.key).update(`${productId}.${userId}.${expires}`).digest('base64url');
  }

  /** The product's deliverable: its file, or a track product's original audio. */
  private async deliverable(productId: string): Promise<Deliverable | undefined> {
    const product = await this.deps.downloads.findProduct(productId);
    if (!product) throw notFound('Product');
    if (product.file_key) {
      return {
        key: product.file_key,
        filename: product.file_name ?? product.title,
        size: product.file_size === null ? undefined : Number(product.file_size),
        contentType: product.file_content_type ?? 'application/octet-stream',
      };
    }
    if (product.product_type === 'track' && product.track_id) return this.deps.tracks.originalFile(product.track_id);
    return undefined;
  }

  async link(actor: UserActor, productId: string): Promise<{ url: string; expires_at: string; filename: string }> {
    const { downloads, clock, publicBaseUrl } = this.deps;
    const product = await downloads.findProduct(productId);
    if (!product) throw notFound('Product');
    // a buyer keeps what they bought; to anyone else a product moderation withholds does not exist
    if (!(await downloads.hasLicense(actor.id, productId))) {
      throw productWithheld(actor, product) ? notFound('Product') : noLicense();
    }
    const file = await this.deliverable(productId);
    if (!file) throw new AppError('NOT_FOUND', 'This product has nothing to download (a service)');
    const expires = Math.floor(clock.now().getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS;
    const query = new URLSearchParams({
      user: actor.id,
      expires: String(expires),
      signature: this.sign(productId, actor.id, expires),
    });
    return {
      url: `${publicBaseUrl}/api/v1/marketplace/download/${productId}/file?${query.toString()}`,
      expires_at: new Date(expires * 1000).toISOString(),
      filename: file.filename,
    };
  }

  /** Serves a signed URL: the file (or, on S3, a presigned redirect), counted once per download. */
  async serve(
    productId: string,
    query: { user: string; expires: number; signature: string },
  ): Promise<{ redirect: string } | { body: Readable; headers: Record<string, string> }> {
    const { downloads, clock, storage, scope } = this.deps;
    const expected = Buffer.from(this.sign(productId, query.user, query.expires));
    const given = Buffer.from(query.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new AppError('FORBIDDEN', 'This download link is not valid');
    if (query.expires * 1000 < clock.now().getTime())
      throw new AppError('FORBIDDEN', 'This download link has expired: ask for a new one');
    if (!(await downloads.hasLicense(query.user, productId))) throw noLicense();
    const file = await this.deliverable(productId);
    if (!file) throw new AppError('NOT_FOUND', 'This product has nothing to download');
    const disposition = attachment(file.filename);
    const presigned = await storage.presignedGetUrl(file.key, {
      expiresInSeconds: DOWNLOAD_URL_TTL_SECONDS,
      contentType: file.contentType,
      contentDisposition: disposition,
    });
    const size = file.size ?? (await storage.size(file.key));
    if (!presigned && size === undefined) throw new AppError('NOT_FOUND', 'The file of this product is missing');
    await scope.transaction(() => downloads.count(productId, query.user));
    if (presigned) return { redirect: presigned };
    return {
      body: await storage.get(file.key),
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': disposition,
        'Content-Length': String(size),
        'Cache-Control': 'private, no-store',
      },
    };
  }
}
