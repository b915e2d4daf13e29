import { z } from 'zod';
import { PaginationQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';

/** A folder holds at most this many levels: a top-level folder is at depth 1. */
export const CLOUD_MAX_DEPTH = 32;
/** Files and folders directly inside one folder (or at the top), by default (configurable). */
export const CLOUD_FOLDER_MAX_ITEMS = 10_000;
/** The largest cloud file by default (configurable: CLOUD_MAX_FILE_BYTES). */
export const CLOUD_MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * A file or folder name: 1–255 characters, no `/`, no NUL, not `.` or `..`. Names are unique among
 * the files and folders of one folder, compared case-insensitively.
 */
export const CloudNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'at most 255 characters')
  .refine((name) => !name.includes('/'), 'must not contain /')
  .refine((name) => !name.includes('\u0000'), 'must not contain NUL')
  .refine((name) => name !== '.' && name !== '..', 'must not be . or ..');

export const CloudFolderSchema = named(
  'CloudFolder',
  z.object({
    id: UuidSchema,
    name: z.string(),
    parent_id: UuidSchema.nullable().describe('null at the top'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type CloudFolder = z.infer<typeof CloudFolderSchema>;

export const CloudFileSchema = named(
  'CloudFile',
  z.object({
    id: UuidSchema,
    name: z.string(),
    folder_id: UuidSchema.nullable().describe('null at the top'),
    size: z.number().int(),
    content_type: z
      .string()
      .describe('Recognised from the bytes, never taken from the client; application/octet-stream when unknown'),
    md5: z.string().describe('Hex md5 of the content'),
    version: z.number().int().describe('1 for the first content, one more for each new one'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type CloudFile = z.infer<typeof CloudFileSchema>;

export const CreateCloudFolderRequestSchema = named(
  'CreateCloudFolderRequest',
  z.object({
    name: CloudNameSchema,
    parent_id: UuidSchema.nullish().describe('The folder to create it in; the top when absent'),
  }),
);
export type CreateCloudFolderRequest = z.infer<typeof CreateCloudFolderRequestSchema>;

export const UpdateCloudFolderRequestSchema = named(
  'UpdateCloudFolderRequest',
  z.object({
    name: CloudNameSchema.optional(),
    parent_id: UuidSchema.nullable().optional().describe('Move into this folder; null moves it to the top'),
  }),
);
export type UpdateCloudFolderRequest = z.infer<typeof UpdateCloudFolderRequestSchema>;

export const UpdateCloudFileRequestSchema = named(
  'UpdateCloudFileRequest',
  z.object({
    name: CloudNameSchema.optional(),
    folder_id: UuidSchema.nullable().optional().describe('Move into this folder; null moves it to the top'),
  }),
);
export type UpdateCloudFileRequest = z.infer<typeof UpdateCloudFileRequestSchema>;

export const CloudListingQuerySchema = PaginationQuerySchema;
export type CloudListingQuery = z.infer<typeof CloudListingQuerySchema>;

export const CloudFolderEnvelope = envelope(named('CloudFolderReply', z.object({ folder: CloudFolderSchema })));
export const CloudFileEnvelope = envelope(named('CloudFileReply', z.object({ file: CloudFileSchema })));

export const CloudListingSchema = named(
  'CloudListing',
  z.object({
    folder: named('CloudListedFolder', CloudFolderSchema.nullable().describe('null for the top (root)')),
    path: z.array(CloudFolderSchema).describe('The ancestors from the top down, the folder itself excluded'),
    folders: z.array(CloudFolderSchema),
    files: z.array(CloudFileSchema),
    pagination: PaginationSchema,
  }),
);
export type CloudListing = z.infer<typeof CloudListingSchema>;
export const CloudListingEnvelope = envelope(CloudListingSchema);

export const CloudFileVersionSchema = named(
  'CloudFileVersion',
  z.object({
    id: UuidSchema,
    version: z.number().int(),
    size: z.number().int(),
    md5: z.string(),
    created_at: TimestampSchema,
    is_current: z.boolean(),
  }),
);
export const CloudFileVersionsEnvelope = envelope(
  named(
    'CloudFileVersions',
    z.object({
      versions: z.array(CloudFileVersionSchema).describe('Newest first, at most ten, the current one included'),
    }),
  ),
);
export const CloudVersionParamsSchema = z.object({ id: UuidSchema, versionId: UuidSchema });

/** What the trash holds: a file, or a folder deleted with everything in it (one item). */
export const CLOUD_ITEM_TYPES = ['file', 'folder'] as const;
export type CloudItemType = (typeof CLOUD_ITEM_TYPES)[number];

export const CloudTrashItemSchema = named(
  'CloudTrashItem',
  z.object({
    id: UuidSchema.describe('The file’s or folder’s id'),
    type: z.enum(CLOUD_ITEM_TYPES),
    name: z.string(),
    size: z.number().int().describe('A file’s size; for a folder, the files deleted with it'),
    deleted_at: TimestampSchema,
    purge_at: TimestampSchema.describe('When it is deleted for good (30 days after deleted_at)'),
  }),
);
export type CloudTrashItem = z.infer<typeof CloudTrashItemSchema>;
export const CloudTrashPageEnvelope = envelope(
  named('CloudTrashPage', z.object({ items: z.array(CloudTrashItemSchema), pagination: PaginationSchema })),
);
export const CloudRestoredEnvelope = envelope(
  named(
    'CloudRestored',
    z
      .object({ file: CloudFileSchema.optional(), folder: CloudFolderSchema.optional() })
      .describe('`file` when the item was a file, `folder` when it was a folder'),
  ),
);
export const CloudEmptiedEnvelope = envelope(
  named('CloudTrashEmptied', z.object({ deleted: z.number().int().describe('Items deleted for good') })),
);

export const CloudSearchQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters').describe('Words of the name'),
  type: z.enum(CLOUD_ITEM_TYPES).optional().describe('Only files or only folders'),
});
export type CloudSearchQuery = z.infer<typeof CloudSearchQuerySchema>;

export const CloudSearchResultSchema = named(
  'CloudSearchResult',
  z
    .object({ type: z.enum(CLOUD_ITEM_TYPES), file: CloudFileSchema.optional(), folder: CloudFolderSchema.optional() })
    .describe('`file` for a file, `folder` for a folder'),
);
export const CloudSearchEnvelope = envelope(
  named('CloudSearchPage', z.object({ results: z.array(CloudSearchResultSchema), pagination: PaginationSchema })),
);
