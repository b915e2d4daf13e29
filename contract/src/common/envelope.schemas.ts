import { z, type ZodTypeAny } from 'zod';
import { named, withOpenApi } from './openapi-meta.js';
import { ERROR_CODE_LIST, type ErrorStatus } from './error-codes.js';

/**
 * The stable codes of ERROR_CODES, documented as one named enum so generated clients type `code` as
 * a union. The zod type stays a string: a client keeps accepting replies with codes added later
 * (and an enum repeated in every route's type is more than the compiler serializes).
 */
export const ErrorCodeSchema = named(
  'ErrorCode',
  withOpenApi(z.string(), {
    enum: ERROR_CODE_LIST,
    description: 'Stable machine-readable code; never reused for another meaning',
  }),
);

export const ValidationIssueSchema = named(
  'ValidationIssue',
  z.object({
    field: z.string(),
    message: z.string(),
    value: z.string(),
  }),
);

export const ErrorBodySchema = named(
  'ErrorBody',
  z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.array(ValidationIssueSchema).optional(),
    request_id: z.string(),
  }),
);

/** Every failure, on every endpoint: `{"success":false,"error":{code,message,details?,request_id}}`. */
export const ErrorEnvelopeSchema = named(
  'ErrorEnvelope',
  z.object({
    success: z.literal(false),
    error: ErrorBodySchema,
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/**
 * The component name of the envelope around a named payload: TrackReply → TrackReplyEnvelope,
 * TrackPage → TrackPageEnvelope, Message → MessageEnvelope. One name per payload (payload names
 * are unique), so generated clients share one type per reply shape instead of inventing one per
 * operation.
 */
export const envelopeName = (payload: string) => `${payload}Envelope`;

/**
 * Success with (env): `{"success":true,"data":…}`. Around a named payload the envelope is named
 * too (see envelopeName).
 */
export const envelope = <T extends ZodTypeAny>(data: T) => {
  const schema = z.object({
    success: z.literal(true),
    data,
  });
  const payload = (data as { metaOpenApi?: { title?: unknown } }).metaOpenApi?.title;
  return typeof payload === 'string' ? named(envelopeName(payload), schema) : schema;
};

/** Declares error replies, all in the error envelope: `responses: { 200: X, ...errors(400, 404) }`. */
export function errors<const S extends readonly ErrorStatus[]>(
  ...statuses: S
): { [K in S[number]]: typeof ErrorEnvelopeSchema } {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelopeSchema])) as {
    [K in S[number]]: typeof ErrorEnvelopeSchema;
  };
}
