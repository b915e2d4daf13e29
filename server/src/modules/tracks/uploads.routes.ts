import type { RiffRequest as Request, RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoute } from '../../platform/http/contract-routes.js';
import { z } from 'zod';
import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { AppError } from '../../platform/errors/app-error.js';
import { ok } from '../../platform/http/envelope.js';
import { formBoolean, formInteger, parseFormFields, parseMultipart } from '../../platform/http/multipart.js';
import type { ChunkedUploadsService, ChunkFields } from './chunked-uploads.service.js';
import type { IncomingForm } from './upload-pipeline.js';
import type { UploadFields, UploadsService } from './uploads.service.js';

/** Text fields beside the file of POST /tracks; an empty title is no title (the tags or the file name give one). */
const UploadFieldsSchema = z.object({
  title: z
    .string()
    .trim()
    .max(255, 'at most 255 characters')
    .optional()
    .transform((title) => title || null),
  is_public: formBoolean.optional(),
}) satisfies z.ZodType<UploadFields, z.ZodTypeDef, unknown>;

const ChunkFieldsSchema = z.object({
  upload_id: z.string().uuid(),
  chunk_number: formInteger(0),
  total_chunks: formInteger(1),
  total_size: formInteger(1),
  filename: z.string().min(1).max(255),
}) satisfies z.ZodType<ChunkFields, z.ZodTypeDef, unknown>;

/**
 * Runs an upload on the request's multipart form (the file in `fileField`, the text fields checked
 * against `schema` once the form has ended). An upload refused before its body is read closes the
 * connection: the rest of the body is not worth reading (parseMultipart does the same for one
 * refused while it is read).
 */
export async function withForm<F, T>(
  req: Request,
  res: Response,
  form: { fileField: string; schema: z.ZodType<F, z.ZodTypeDef, unknown>; message?: string },
  upload: (incoming: IncomingForm<F>) => Promise<T>,
): Promise<T> {
  const declared = Number(req.headers['content-length']);
  let reading = false;
  const incoming: IncomingForm<F> = {
    declaredBytes: Number.isFinite(declared) ? declared : undefined,
    async receive(maxBytes, onFile) {
      reading = true;
      const { fields, file } = await parseMultipart(req, { fileField: form.fileField, maxFileBytes: maxBytes, onFile });
      return { fields: parseFormFields(form.schema, fields, form.message), file };
    },
  };
  try {
    return await upload(incoming);
  } catch (error) {
    if (!reading && error instanceof AppError) res.setHeader('Connection', 'close');
    throw error;
  }
}

export interface UploadsRoutesDeps {
  uploads: UploadsService;
  chunked: ChunkedUploadsService;
}

/** POST /tracks, the chunked session and the quota: part of the tracks router. */
export function uploadsRoutes({ uploads, chunked }: UploadsRoutesDeps) {
  return {
    upload: contractRoute(contract.tracks.upload, async ({ req, res }) => {
      const actor = signedInActor(req);
      const reply = await withForm(req, res, { fileField: 'file', schema: UploadFieldsSchema }, (form) =>
        uploads.upload(actor, form),
      );
      return { status: 201, body: ok(reply) };
    }),
    initiate: contractRoute(contract.tracks.initiate, async ({ body, req }) => ({
      status: 200,
      body: ok(await chunked.initiate(signedInActor(req), body)),
    })),
    chunk: contractRoute(contract.tracks.chunk, async ({ req, res }) => {
      const actor = signedInActor(req);
      const form = {
        fileField: 'chunk',
        schema: ChunkFieldsSchema,
        message: 'Send upload_id, chunk_number, total_chunks, total_size and filename with the chunk',
      };
      return { status: 200, body: ok(await withForm(req, res, form, (incoming) => chunked.chunk(actor, incoming))) };
    }),
    complete: contractRoute(contract.tracks.complete, async ({ body, req }) => {
      const { track, md5 } = await chunked.complete(signedInActor(req), body.upload_id);
      return { status: 201, body: ok({ track, md5, message: 'Upload complete' }) };
    }),
    resume: contractRoute(contract.tracks.resume, async ({ params, req }) => ({
      status: 200,
      body: ok(await chunked.resume(signedInActor(req), params.uploadId)),
    })),
    cancel: contractRoute(contract.tracks.cancel, async ({ params, req }) => ({
      status: 200,
      body: ok(await chunked.cancel(signedInActor(req), params.uploadId)),
    })),
    quota: contractRoute(contract.tracks.quota, async ({ params, req }) => ({
      status: 200,
      body: ok(await uploads.quota(signedInActor(req), params.id)),
    })),
  };
}
