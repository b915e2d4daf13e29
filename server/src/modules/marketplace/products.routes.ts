import { contract, type ProductListQuery, type productsContract } from '@riff/contract';
import { z } from 'zod';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { AppError } from '../../platform/errors/app-error.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import type { RiffRequest as Request, RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { parseRange } from '../tracks/track-streaming.js';
import { withForm } from '../tracks/uploads.routes.js';
import type { FileReceiver, ProductMediaService } from './product-media.service.js';
import type { ProductsService } from './products.service.js';

export interface ProductRoutesDeps {
  products: ProductsService;
  media: ProductMediaService;
  publicBaseUrl: string;
}

const NO_FIELDS = z.object({});

/** The products part's routes of contract.marketplace (the other parts serve the rest). */
type ProductRouter = Pick<typeof contract.marketplace, keyof typeof productsContract>;

/** The multipart form's one file, read as the service asks (it checks the caller first). */
function upload<T>(req: Request, res: Response, work: (receive: FileReceiver) => Promise<T>): Promise<T> {
  return withForm(req, res, { fileField: 'file', schema: NO_FIELDS }, (form) =>
    work(async (maxBytes, onFile) => (await form.receive(maxBytes, onFile)).file),
  );
}

/** RFC 8288 links of a page of the list, the query otherwise kept. */
function pageLinks(baseUrl: string, query: ProductListQuery, total: number): string {
  const last = Math.max(1, Math.ceil(total / query.limit));
  const link = (page: number, rel: string) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && name !== 'page') params.set(name, String(value));
    params.set('page', String(page));
    return `<${baseUrl}/api/v1/marketplace/products?${params.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (query.page > 1) links.push(link(Math.min(query.page - 1, last), 'prev'));
  if (query.page < last) links.push(link(query.page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}

/** Active products may sit in shared caches a little; drafts and archived ones are the seller's. */
const cacheControl = (isPublic: boolean) => (isPublic ? 'public, max-age=300' : 'private, max-age=0');

/** The products part of contract.marketplace. */
export function productRoutes({ products, media, publicBaseUrl }: ProductRoutesDeps) {
  return contractRoutes<ProductRouter>(contract.marketplace, {
    listProducts: async ({ query, req, res }) => {
      const page = await products.list(actorOf(req), query);
      res.setHeader('X-Total-Count', String(page.total));
      res.setHeader('Link', pageLinks(publicBaseUrl, query, page.total));
      return { status: 200, body: page.items };
    },
    createProduct: async ({ body, req }) => ({ status: 201, body: await products.create(signedInActor(req), body) }),
    getProduct: async ({ params, req }) => ({ status: 200, body: await products.get(actorOf(req), params.id) }),
    updateProduct: async ({ params, body, req }) => ({
      status: 200,
      body: await products.update(signedInActor(req), params.id, body),
    }),
    deleteProduct: async ({ params, req }) => ({
      status: 200,
      body: await products.remove(signedInActor(req), params.id),
    }),
    createLicense: async ({ params, body, req }) => ({
      status: 201,
      body: await products.createLicense(signedInActor(req), params.id, body),
    }),
    updateLicense: async ({ params, body, req }) => ({
      status: 200,
      body: await products.updateLicense(signedInActor(req), params.id, params.licenseId, body),
    }),
    deleteLicense: async ({ params, req }) => ({
      status: 200,
      body: await products.deleteLicense(signedInActor(req), params.id, params.licenseId),
    }),
    addImage: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      return { status: 201, body: await upload(req, res, (receive) => media.addImage(actor, params.id, receive)) };
    },
    removeImage: async ({ params, req }) => ({
      status: 200,
      body: await media.removeImage(signedInActor(req), params.id, params.imageId),
    }),
    image: async ({ params, req, res }) => {
      const image = await media.image(actorOf(req), params.id, params.imageId);
      image.body.on('error', () => res.destroy());
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Content-Length', String(image.size));
      res.setHeader('Cache-Control', cacheControl(image.isPublic));
      return { status: 200, body: image.body };
    },
    addPreview: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      return { status: 201, body: await upload(req, res, (receive) => media.addPreview(actor, params.id, receive)) };
    },
    removePreview: async ({ params, req }) => ({
      status: 200,
      body: await media.removePreview(signedInActor(req), params.id, params.previewId),
    }),
    preview: async ({ params, headers, req, res }) => {
      const preview = await media.preview(actorOf(req), params.id, params.previewId);
      const range = parseRange(headers.range, preview.size);
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('Cache-Control', cacheControl(preview.isPublic));
      if (range === 'unsatisfiable') {
        throw new AppError(
          'RANGE_NOT_SATISFIABLE',
          `The range starts past the end of the preview (${preview.size} bytes)`,
          {
            headers: { 'Content-Range': `bytes */${preview.size}`, 'Accept-Ranges': 'bytes' },
          },
        );
      }
      const body = await preview.open(range);
      body.on('error', () => res.destroy());
      res.setHeader('Content-Type', preview.contentType);
      if (!range) {
        res.setHeader('Content-Length', String(preview.size));
        return { status: 200, body };
      }
      res.setHeader('Content-Length', String(range.end - range.start + 1));
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${preview.size}`);
      return { status: 206, body };
    },
    putFile: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      return { status: 200, body: await upload(req, res, (receive) => media.putFile(actor, params.id, receive)) };
    },
  });
}
