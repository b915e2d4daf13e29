import type { RiffRequest as Request } from './http-exchange.js';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError, badRequest, fieldIssue, validationFailed } from '../errors/app-error.js';
import { issuesFrom } from '../errors/error-middleware.js';

export interface MultipartOptions<T> {
  /** The one file part accepted. */
  fileField: string;
  maxFileBytes: number;
  /**
   * Called as soon as the file part starts, wherever it is in the form: text fields may still follow,
   * so they are checked once the form has ended (parseFormFields). It must start consuming the stream
   * before it awaits anything: a client may go away at any moment, and the stream's end or error
   * must reach whatever writes it.
   */
  onFile(stream: Readable, info: { filename: string; mimeType: string }): Promise<T>;
  maxFields?: number;
  maxFieldBytes?: number;
}

export interface MultipartResult<T> {
  fields: Record<string, string>;
  file: T;
}

/** Multipart text fields are strings; these read them strictly (no "0", "no", "1e3" or " 7" coerced). */
export const formBoolean = z
  .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
  .transform((value) => value === 'true');
export const formInteger = (min: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number written in digits')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`));

/** The text fields of a form, checked against `schema` once the form has ended: 400 VALIDATION_FAILED naming each bad field. */
export function parseFormFields<S extends z.ZodTypeAny>(
  schema: S,
  fields: Record<string, string>,
  message = 'The form fields are not valid',
): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw validationFailed(message, issuesFrom(parsed.error, fields));
  return parsed.data as z.output<S>;
}

/**
 * Streams a multipart/form-data body: text fields are collected, the file part is handed over as
 * a stream (never buffered whole) whatever the order of the parts. A file over maxFileBytes makes
 * the stream fail with 413.
 */
export function parseMultipart<T>(req: Request, options: MultipartOptions<T>): Promise<MultipartResult<T>> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as multipart/form-data'));
  }
  // the client may have gone while the caller awaited its checks: the events that say so are past
  if (req.destroyed || req.aborted) return Promise.reject(badRequest('The upload was interrupted'));
  return new Promise<MultipartResult<T>>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // curl and browsers send a non-ASCII file name as plain UTF-8 in filename=, not as RFC 5987 filename*=
        defParamCharset: 'utf8',
        limits: {
          files: 1,
          // busboy reports the limit when a file reaches it; one byte more lets a file of exactly the limit through
          fileSize: options.maxFileBytes + 1,
          fields: options.maxFields ?? 10,
          fieldSize: options.maxFieldBytes ?? 1024,
          parts: (options.maxFields ?? 10) + 1,
        },
      });
    } catch {
      reject(badRequest('Malformed multipart/form-data (missing boundary)'));
      return;
    }
    const fields: Record<string, string> = {};
    let handling: Promise<T> | undefined;
    let fileStream: Readable | undefined;
    let failed = false;
    /**
     * Stops reading, fails the file stream (so whatever writes it fails and cleans up), and
     * rejects once that writer has settled: the caller's own clean-up then runs last.
     */
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // the rest of the body is not worth reading: the reply closes the connection instead
      req.res?.setHeader('Connection', 'close');
      if (fileStream && !fileStream.destroyed)
        fileStream.destroy(error instanceof Error ? error : new Error(String(error)));
      const settled = handling
        ? handling.then(
            () => undefined,
            () => undefined,
          )
        : Promise.resolve();
      void settled.then(() => reject(error));
    };

    parser.on('field', (name: string | undefined, value, info) => {
      // a part whose Content-Disposition has no name: busboy gives it no name (reading one would crash the process)
      if (name === undefined)
        return fail(validationFailed('A form part has no name', [fieldIssue('', 'every part needs a name')]));
      if (info.valueTruncated)
        return fail(validationFailed(`Field ${name} is too long`, [fieldIssue(name, 'too long')]));
      if (value.includes('\u0000') || name.includes('\u0000')) {
        return fail(
          validationFailed('The request contains a NUL character', [
            fieldIssue(name, 'must not contain NUL characters'),
          ]),
        );
      }
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField || handling) {
        stream.resume();
        if (name !== options.fileField)
          fail(
            validationFailed(`Unexpected file field ${name}; send the file as ${options.fileField}`, [
              fieldIssue(name, 'unexpected file'),
            ]),
          );
        return;
      }
      fileStream = stream;
      // the handler's own listeners come next (synchronously); this one only keeps an early error from going uncaught
      stream.on('error', () => undefined);
      stream.on('limit', () =>
        stream.destroy(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${options.maxFileBytes} bytes`)),
      );
      handling = options.onFile(stream, { filename: info.filename ?? '', mimeType: info.mimeType });
      handling.catch((error: unknown) => {
        stream.resume();
        fail(error);
      });
    });
    parser.on('filesLimit', () => fail(validationFailed('Send one file per request')));
    parser.on('fieldsLimit', () => fail(validationFailed('Too many fields')));
    parser.on('partsLimit', () => fail(validationFailed('Too many parts')));
    parser.on('error', () => fail(badRequest('Malformed multipart/form-data body')));
    parser.on('close', () => {
      if (failed) return;
      if (!handling) {
        fail(
          validationFailed(`A file is required in field ${options.fileField}`, [
            fieldIssue(options.fileField, 'Required'),
          ]),
        );
        return;
      }
      handling.then((file) => resolve({ fields, file }), fail);
    });
    req.on('aborted', () => fail(badRequest('The upload was interrupted')));
    req.on('close', () => {
      if (!req.complete) fail(badRequest('The upload was interrupted'));
    });
    req.pipe(parser);
  });
}
