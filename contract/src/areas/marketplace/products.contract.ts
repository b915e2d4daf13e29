import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { binaryField, fileField } from '../tracks/tracks.schemas.js';
import {
  CreateLicenseRequestSchema,
  CreateProductRequestSchema,
  PRODUCT_IMAGES_MAX,
  PRODUCT_PREVIEWS_MAX,
  PRODUCTS_PER_SELLER_MAX,
  ProductImageParamsSchema,
  ProductImageSchema,
  ProductLicenseParamsSchema,
  ProductLicenseSchema,
  ProductListQuerySchema,
  ProductListSchema,
  ProductPreviewParamsSchema,
  ProductPreviewSchema,
  ProductRemovalSchema,
  ProductSchema,
  UpdateLicenseRequestSchema,
  UpdateProductRequestSchema,
} from './products.schemas.js';

const c = initContract();

const VISIBLE = ' A draft or archived product is seen by its seller only (others 404).';
const SELLER = ' The seller only: another user who may see the product gets 403, one who may not 404.' + VISIBLE;

/** Products: the catalogue, licenses, images, previews, the deliverable file. */
export const productsContract = c.router({
  listProducts: {
    method: 'GET',
    path: '/marketplace/products',
    summary: 'Products',
    description:
      'Active products, newest first, as a plain array; the pagination is in the headers X-Total-Count and Link (rel next, prev, ' +
      'first, last). The seller also sees their own drafts and archived products with seller_id = themselves (status filters ' +
      'them); for anyone else a status other than active gives an empty list. q matches words of the title and description; ' +
      'min_price and max_price are in major units.',
    metadata: optionalAuth,
    query: ProductListQuerySchema,
    responses: { 200: ProductListSchema, ...errors(400, 401) },
  },
  createProduct: {
    method: 'POST',
    path: '/marketplace/products',
    summary: 'Create a product',
    description:
      `A new product is a draft. license_type standard → basic, commercial → premium. A track product links one of your tracks ` +
      `(track_id; 400 otherwise, 404 for a track you may not see). At most ${PRODUCTS_PER_SELLER_MAX} products per seller ` +
      '(400 LIMIT_REACHED).',
    metadata: userRoute,
    body: CreateProductRequestSchema,
    responses: { 201: ProductSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  getProduct: {
    method: 'GET',
    path: '/marketplace/products/:id',
    summary: 'A product',
    description: 'avg_rating and review_count come from the reviews.' + VISIBLE,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: ProductSchema, ...errors(400, 401, 404) },
  },
  updateProduct: {
    method: 'PUT',
    path: '/marketplace/products/:id',
    summary: 'Update a product',
    description:
      'Fields sent are set. status moves: draft → active, active → archived, archived → active, draft → archived; others 400 ' +
      'INVALID_TRANSITION. licenses, when sent, replace every license. A product whose exclusive license was sold stays archived.' +
      SELLER,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateProductRequestSchema,
    responses: { 200: ProductSchema, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  deleteProduct: {
    method: 'DELETE',
    path: '/marketplace/products/:id',
    summary: 'Delete a product',
    description:
      'Archives a product that has orders (they keep it as a record); otherwise deletes it with its images, previews and file.' +
      SELLER,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: ProductRemovalSchema, ...errors(400, 401, 403, 404) },
  },
  createLicense: {
    method: 'POST',
    path: '/marketplace/products/:id/licenses',
    summary: 'Add a license',
    description: 'One license per license_type: a second is 409 CONFLICT.' + SELLER,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateLicenseRequestSchema,
    responses: { 201: ProductLicenseSchema, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  updateLicense: {
    method: 'PUT',
    path: '/marketplace/products/:id/licenses/:licenseId',
    summary: 'Change a license',
    description: 'Its price or terms.' + SELLER,
    metadata: userRoute,
    pathParams: ProductLicenseParamsSchema,
    body: UpdateLicenseRequestSchema,
    responses: { 200: ProductLicenseSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  deleteLicense: {
    method: 'DELETE',
    path: '/marketplace/products/:id/licenses/:licenseId',
    summary: 'Remove a license',
    description: 'Replies the product. Orders already made keep what they bought.' + SELLER,
    metadata: userRoute,
    pathParams: ProductLicenseParamsSchema,
    body: c.noBody(),
    responses: { 200: ProductSchema, ...errors(400, 401, 403, 404) },
  },
  addImage: {
    method: 'POST',
    path: '/marketplace/products/:id/images',
    summary: 'Add an image',
    description:
      `multipart/form-data with the image in field \`file\`: PNG, JPEG or WebP recognised by its content, at most 10 MiB. ` +
      `Re-encoded without its metadata (EXIF location), fitted inside 1200×1200 (never enlarged). At most ${PRODUCT_IMAGES_MAX} images ` +
      '(400 LIMIT_REACHED). Not an image: 400 INVALID_IMAGE; over 10 MiB: 413.' +
      SELLER,
    metadata: userRoute,
    contentType: 'multipart/form-data',
    pathParams: IdParamsSchema,
    body: named('AddProductImageRequest', z.object({ file: fileField('The image') })).optional(),
    responses: { 201: ProductImageSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removeImage: {
    method: 'DELETE',
    path: '/marketplace/products/:id/images/:imageId',
    summary: 'Remove an image',
    description: 'Replies the product.' + SELLER,
    metadata: userRoute,
    pathParams: ProductImageParamsSchema,
    body: c.noBody(),
    responses: { 200: ProductSchema, ...errors(400, 401, 403, 404) },
  },
  image: {
    method: 'GET',
    path: '/marketplace/products/:id/images/:imageId',
    summary: 'A product image',
    description: 'The stored image (JPEG, or PNG with transparency).' + VISIBLE,
    metadata: optionalAuth,
    pathParams: ProductImageParamsSchema,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The image') }),
      ...errors(400, 401, 404),
    },
  },
  addPreview: {
    method: 'POST',
    path: '/marketplace/products/:id/previews',
    summary: 'Add a preview',
    description:
      'multipart/form-data with the audio in field `file` (MP3, WAV, FLAC or OGG, like a track upload). The stored preview is ' +
      `its first 60 seconds at most, as MP3. At most ${PRODUCT_PREVIEWS_MAX} previews (400 LIMIT_REACHED). Not audio: 400 ` +
      'INVALID_AUDIO.' +
      SELLER,
    metadata: userRoute,
    contentType: 'multipart/form-data',
    pathParams: IdParamsSchema,
    body: named('AddProductPreviewRequest', z.object({ file: fileField('The audio') })).optional(),
    responses: { 201: ProductPreviewSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removePreview: {
    method: 'DELETE',
    path: '/marketplace/products/:id/previews/:previewId',
    summary: 'Remove a preview',
    description: 'Replies the product.' + SELLER,
    metadata: userRoute,
    pathParams: ProductPreviewParamsSchema,
    body: c.noBody(),
    responses: { 200: ProductSchema, ...errors(400, 401, 403, 404) },
  },
  preview: {
    method: 'GET',
    path: '/marketplace/products/:id/previews/:previewId',
    summary: 'A product preview',
    description: 'The preview audio (MP3), with byte ranges.' + VISIBLE,
    metadata: optionalAuth,
    pathParams: ProductPreviewParamsSchema,
    responses: {
      200: c.otherResponse({ contentType: 'audio/mpeg', body: binaryField('The preview') }),
      206: c.otherResponse({ contentType: 'audio/mpeg', body: binaryField('The range asked for') }),
      ...errors(400, 401, 404, 416),
    },
  },
  putFile: {
    method: 'PUT',
    path: '/marketplace/products/:id/file',
    summary: 'Upload the deliverable',
    description:
      'multipart/form-data with the file in field `file`: a zip archive or audio (MP3, WAV, FLAC, OGG) recognised by its content, ' +
      'at most 2 GiB, streamed to storage; it replaces the previous one. Pack and service products only: a track product ' +
      'delivers its track’s original (400). Replies the product.' +
      SELLER,
    metadata: userRoute,
    contentType: 'multipart/form-data',
    pathParams: IdParamsSchema,
    body: named('PutProductFileRequest', z.object({ file: fileField('The zip or audio file') })).optional(),
    responses: { 200: ProductSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
});
