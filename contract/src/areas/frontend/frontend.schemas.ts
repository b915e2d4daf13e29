import { z } from 'zod';
import { named } from '../../common/openapi-meta.js';
import { ValidationIssueSchema } from '../../common/envelope.schemas.js';

export const FRONTEND_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** A frontend log entry's body may be this large. */
export const FRONTEND_LOG_MAX_BYTES = 16 * 1024;
/** POST /validate takes a JSON document of at most this many bytes. */
export const VALIDATE_MAX_BYTES = 65_536;

export const FrontendLogRequestSchema = named(
  'FrontendLogRequest',
  z.object({
    level: z.enum(FRONTEND_LOG_LEVELS),
    message: z.string().min(1).max(2000),
    timestamp: z
      .string()
      .max(64)
      .optional()
      .describe('When the frontend saw it (as the frontend tells it; logged as client_timestamp)'),
    context: z.record(z.unknown()).optional().describe('Where it happened: page, component, build'),
    data: z.unknown().optional().describe('Anything else worth logging'),
  }),
);
export type FrontendLogRequest = z.infer<typeof FrontendLogRequestSchema>;

export const FrontendLogReceiptSchema = named('FrontendLogReceipt', z.object({ received: z.boolean() }));

export const ValidateRequestSchema = named(
  'ValidateRequest',
  z.object({
    type: z
      .string()
      .min(1)
      .max(100)
      .describe('The name of a request schema of this document, e.g. RegisterRequest, CreatePlaylistRequest'),
    data: z
      .array(z.number().int().min(0).max(255))
      .max(VALIDATE_MAX_BYTES)
      .describe(`The UTF-8 bytes of a JSON document, one integer 0–255 each (at most ${VALIDATE_MAX_BYTES})`),
  }),
);
export type ValidateRequest = z.infer<typeof ValidateRequestSchema>;

export const ValidateResponseSchema = named(
  'ValidateResponse',
  z.object({
    valid: z.boolean(),
    message: z.string(),
    errors: z
      .array(ValidationIssueSchema)
      .describe('Empty when valid; else what the endpoint itself would answer in error.details'),
  }),
);
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;

export const IceServerSchema = named(
  'IceServer',
  z.object({
    urls: z.array(z.string()),
    username: z.string().optional(),
    credential: z.string().optional(),
  }),
);

export const WebRtcConfigSchema = named(
  'WebRtcConfig',
  z.object({ iceServers: z.array(IceServerSchema).describe('RTCIceServer entries, as RTCPeerConnection takes them') }),
);
export type WebRtcConfig = z.infer<typeof WebRtcConfigSchema>;
