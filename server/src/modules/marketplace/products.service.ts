import { withinLimit } from '../../platform/rate-limit/within-limit.js';
import {
  LICENSE_TYPE_ALIASES,
  PRODUCTS_PER_SELLER_MAX,
  type CreateLicenseRequest,
  type CreateProductRequest,
  type LicenseType,
  type Product,
  type ProductListQuery,
  type ProductRemoval,
  type UpdateLicenseRequest,
  type UpdateProductRequest,
} from '@riff/contract';
import { systemActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/db-errors.js';
import {
  AppError,
  conflict,
  fieldIssue,
  forbidden,
  limitReached,
  notFound,
  validationFailed,
} from '../../platform/errors/app-error.js';
import type { EventMap } from '../../platform/events/event-map.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { Logger } from 'pino';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { priceToCents, toLicenseDto, toProductDto } from './products.mapper.js';
import { canEditProduct, canMoveProduct, canSeeProduct, productListReach } from './products.policy.js';
import type { ProductLicenseRow, ProductRow, ProductsRepository } from './products.repository.js';

type LicenseInput = NonNullable<CreateProductRequest['licenses']>[number];

const invalid = (field: string, message: string) => validationFailed(message, [fieldIssue(field, message)]);
const licenseType = (value: string | null | undefined): LicenseType | null | undefined =>
  value == null ? value : (LICENSE_TYPE_ALIASES[value as keyof typeof LICENSE_TYPE_ALIASES] ?? (value as LicenseType));
/** Where a product's stored files live: deleting it removes the folder. */
export const productFolder = (productId: string) => `products/${productId}/`;

export interface ProductsServiceDeps {
  scope: DbScope;
  events: EventBus;
  /** A deleted product's files are removed after the commit; a failure is logged. */
  storage: ObjectStorage;
  logger: Logger;
  /** A track product links a track of the seller's that they may see. */
  tracks: TrackReader;
  /** The users area's account lock (PeopleReader.lockAccount): a seller's creations run one at a time. */
  people: Pick<PeopleReader, 'lockAccount'>;
  products: ProductsRepository;
  /** How many products a seller may create in a window. */
  created: Limiter;
  publicBaseUrl: string;
}

/** The catalogue: products and their licenses. */
export class ProductsService {
  constructor(private readonly deps: ProductsServiceDeps) {}

  private get scope() {
    return this.deps.scope;
  }

  private get products() {
    return this.deps.products;
  }

  private get created() {
    return this.deps.created;
  }

  private get baseUrl() {
    return this.deps.publicBaseUrl;
  }

  /** The product as the reply shows it. */
  async reply(product: ProductRow): Promise<Product> {
    const [bundle] = await this.products.bundles([product]);
    return toProductDto(bundle!, this.baseUrl);
  }

  /** The product if the actor may see it, else 404. */
  async visible(actor: Actor, id: string): Promise<ProductRow> {
    const product = await this.products.find(id);
    if (!product || !canSeeProduct(actor, product)) throw notFound('Product');
    return product;
  }

  /** The product, locked, if the actor is its seller: 404 when they may not see it, 403 when they may not change it. */
  async editable(actor: Actor, id: string): Promise<ProductRow> {
    const product = await this.products.findForUpdate(id);
    if (!product || !canSeeProduct(actor, product)) throw notFound('Product');
    if (!canEditProduct(actor, product)) throw forbidden('Only the seller may change this product');
    return product;
  }

  async list(actor: Actor, query: ProductListQuery) {
    const own = query.seller_id !== undefined && isOwner(actor, query.seller_id);
    const statuses = own ? (query.status ? [query.status] : undefined) : ['active' as const];
    const empty = !own && query.status !== undefined && query.status !== 'active';
    const minCents = query.min_price === undefined ? undefined : priceToCents(query.min_price);
    const maxCents = query.max_price === undefined ? undefined : priceToCents(query.max_price);
    const offset = (query.page - 1) * query.limit;
    if (empty || (minCents !== undefined && maxCents !== undefined && minCents > maxCents))
      return { items: [], total: 0 };
    const text = query.q ? query.q : undefined;
    const viewerId = actor.kind === 'user' ? actor.id : undefined;
    const page = await this.products.list({
      sellerId: query.seller_id,
      statuses,
      type: query.type,
      text,
      viewerId,
      reach: productListReach(actor),
      minCents,
      maxCents,
      limit: query.limit,
      offset,
    });
    const bundles = await this.products.bundles(page.rows);
    return { items: bundles.map((bundle) => toProductDto(bundle, this.baseUrl)), total: page.total };
  }

  async get(actor: Actor, id: string): Promise<Product> {
    return this.reply(await this.visible(actor, id));
  }

  private async checkTrack(
    actor: UserActor,
    type: CreateProductRequest['product_type'],
    trackId: string | undefined,
  ): Promise<void> {
    if (type !== 'track') {
      if (trackId !== undefined) throw invalid('track_id', 'Only a track product links a track');
      return;
    }
    if (trackId === undefined) throw invalid('track_id', 'A track product needs track_id: one of your tracks');
    const track = (await this.deps.tracks.visibleTracks(actor, [trackId])).get(trackId);
    if (!track) throw notFound('Track');
    if (!isOwner(actor, track.creator_id)) throw invalid('track_id', 'The track must be one of your own');
  }

  async create(actor: UserActor, body: CreateProductRequest): Promise<Product> {
    return withinLimit(
      this.created,
      actor.id,
      (limit) => `At most ${limit} products created a minute: try again later`,
      () => this.insert(actor, body),
    );
  }

  private async insert(actor: UserActor, body: CreateProductRequest): Promise<Product> {
    await this.checkTrack(actor, body.product_type, body.track_id);
    return this.scope.transaction(async () => {
      // the seller's account row is held until commit, so the per-seller cap holds under concurrent requests
      await this.deps.people.lockAccount(actor.id);
      if ((await this.products.countBySeller(actor.id)) >= PRODUCTS_PER_SELLER_MAX) {
        throw limitReached(`A seller may have at most ${PRODUCTS_PER_SELLER_MAX} products`);
      }
      const product = await this.products.insert({
        seller_id: actor.id,
        title: body.title,
        description: body.description ?? null,
        price_cents: priceToCents(body.price),
        currency: body.currency ?? 'USD',
        product_type: body.product_type,
        category: body.category ?? null,
        bpm: body.bpm ?? null,
        musical_key: body.musical_key ?? null,
        license_type: licenseType(body.license_type) ?? null,
        track_id: body.track_id ?? null,
      });
      for (const license of body.licenses ?? [])
        await this.products.insertLicense({ product_id: product.id, ...licenseRow(license) });
      await this.record(actor, 'product.created', product.id, {
        title: product.title,
        product_type: product.product_type,
      });
      return this.reply(product);
    });
  }

  async update(actor: UserActor, id: string, body: UpdateProductRequest): Promise<Product> {
    return this.scope.transaction(async () => {
      const product = await this.editable(actor, id);
      if (body.status !== undefined && !canMoveProduct(product.status, body.status)) {
        throw new AppError('INVALID_TRANSITION', `A product cannot move from ${product.status} to ${body.status}`);
      }
      if (body.status === 'active' && product.status !== 'active' && (await this.products.exclusiveSold(id))) {
        throw conflict('The exclusive license of this product was sold: it stays off sale');
      }
      const updated = await this.products.update(id, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.price !== undefined ? { price_cents: priceToCents(body.price) } : {}),
        ...(body.currency !== undefined ? { currency: body.currency } : {}),
        ...(body.category !== undefined ? { category: body.category } : {}),
        ...(body.license_type !== undefined ? { license_type: licenseType(body.license_type) ?? null } : {}),
        ...(body.bpm !== undefined ? { bpm: body.bpm } : {}),
        ...(body.musical_key !== undefined ? { musical_key: body.musical_key } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
      });
      if (body.licenses !== undefined) await this.replaceLicenses(id, body.licenses);
      await this.record(actor, 'product.updated', id, { fields: Object.keys(body).sort(), status: updated.status });
      return this.reply(updated);
    });
  }

  /** Licenses of a type kept keep their id and availability; the others go, new ones come. */
  private async replaceLicenses(productId: string, wanted: LicenseInput[]): Promise<void> {
    const existing = await this.products.licenses(productId);
    const byType = new Map(existing.map((row) => [row.license_type, row]));
    const keep = new Set(wanted.map((license) => license.license_type));
    await this.products.deleteLicenses(
      productId,
      existing.filter((row) => !keep.has(row.license_type)).map((row) => row.id),
    );
    for (const license of wanted) {
      const current = byType.get(license.license_type);
      if (current)
        await this.products.updateLicense(current.id, {
          price_cents: license.price_cents,
          terms_text: license.terms_text ?? null,
        });
      else await this.products.insertLicense({ product_id: productId, ...licenseRow(license) });
    }
  }

  /** Deletes the product and its files, or archives it when orders name it (they keep it as their record). */
  async remove(actor: UserActor, id: string): Promise<ProductRemoval> {
    try {
      return await this.scope.transaction(async () => {
        const product = await this.editable(actor, id);
        if (await this.products.hasOrders(id)) return this.archive(actor, product);
        await this.products.delete(id);
        await this.record(actor, 'product.deleted', id, { title: product.title });
        this.scope.afterCommit(() =>
          this.deps.storage
            .deletePrefix(productFolder(id))
            .catch((error: unknown) =>
              this.deps.logger.warn({ err: error, product: id }, 'could not delete a product’s files'),
            ),
        );
        return { id, result: 'deleted' as const, product: null };
      });
    } catch (error) {
      // an order made meanwhile names it (order_items restricts the delete): it is archived instead
      if (!isForeignKeyViolation(error)) throw error;
      return this.scope.transaction(async () => this.archive(actor, await this.editable(actor, id)));
    }
  }

  private async archive(actor: UserActor, product: ProductRow): Promise<ProductRemoval> {
    const archived =
      product.status === 'archived' ? product : await this.products.update(product.id, { status: 'archived' });
    await this.record(actor, 'product.archived', product.id, { title: product.title });
    return { id: product.id, result: 'archived', product: await this.reply(archived) };
  }

  /**
   * Archives every product of a banned seller that is not archived yet, as the service itself (in
   * the ban's transaction): off sale for good; orders keep them, and buyers their downloads.
   */
  async archiveAllOf(sellerId: string): Promise<number> {
    let archived = 0;
    for (const product of await this.products.listBySeller(sellerId)) {
      if (product.status === 'archived') continue;
      await this.products.update(product.id, { status: 'archived' });
      await this.deps.events.record(systemActor(), 'product.archived', {
        subject: { resource: 'product', id: product.id },
        data: { title: product.title },
        userId: sellerId,
      });
      archived++;
    }
    return archived;
  }

  private record<T extends 'product.created' | 'product.updated' | 'product.deleted' | 'product.archived'>(
    actor: UserActor,
    type: T,
    id: string,
    data: EventMap[T],
  ) {
    return this.deps.events.record(actor, type, { subject: { resource: 'product', id }, data });
  }

  // licenses

  async createLicense(actor: UserActor, id: string, body: CreateLicenseRequest) {
    return this.scope.transaction(async () => {
      await this.editable(actor, id);
      if (await this.products.licenseOfType(id, body.license_type)) throw duplicateLicense(body.license_type);
      try {
        return toLicenseDto(await this.products.insertLicense({ product_id: id, ...licenseRow(body) }));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateLicense(body.license_type);
        throw error;
      }
    });
  }

  private async license(actor: UserActor, id: string, licenseId: string): Promise<ProductLicenseRow> {
    await this.editable(actor, id);
    const license = await this.products.findLicense(id, licenseId);
    if (!license) throw notFound('License');
    return license;
  }

  async updateLicense(actor: UserActor, id: string, licenseId: string, body: UpdateLicenseRequest) {
    return this.scope.transaction(async () => {
      const license = await this.license(actor, id, licenseId);
      const updated = await this.products.updateLicense(license.id, {
        ...(body.price_cents !== undefined ? { price_cents: body.price_cents } : {}),
        ...(body.terms_text !== undefined ? { terms_text: body.terms_text } : {}),
      });
      return toLicenseDto(updated);
    });
  }

  async deleteLicense(actor: UserActor, id: string, licenseId: string): Promise<Product> {
    return this.scope.transaction(async () => {
      const license = await this.license(actor, id, licenseId);
      await this.products.deleteLicenses(id, [license.id]);
      return this.reply(await this.products.update(id, {}));
    });
  }
}

const duplicateLicense = (type: string) => conflict(`This product already has a ${type} license`);

function licenseRow(license: LicenseInput) {
  return {
    license_type: license.license_type,
    price_cents: license.price_cents,
    terms_text: license.terms_text ?? null,
  };
}
