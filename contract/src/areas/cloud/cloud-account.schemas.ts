import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

// The cloud's part of the account export, in a file of its own: the users area's export schema imports it.

export const ExportedCloudFolderSchema = named(
  'ExportedCloudFolder',
  z.object({
    id: UuidSchema,
    name: z.string(),
    parent_id: UuidSchema.nullable().describe('null at the top'),
    deleted_at: TimestampSchema.nullable().describe('When it went to the trash (with a folder around it), or null'),
    created_at: TimestampSchema,
  }),
);

export const ExportedCloudFileSchema = named(
  'ExportedCloudFile',
  z.object({
    id: UuidSchema,
    name: z.string(),
    folder_id: UuidSchema.nullable().describe('null at the top'),
    size: z.number().int(),
    content_type: z.string(),
    md5: z.string(),
    version: z.number().int().describe('The current version; up to ten are kept'),
    deleted_at: TimestampSchema.nullable().describe('When it went to the trash (with a folder around it), or null'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);

export const ExportedCloudSchema = named(
  'ExportedCloud',
  z.object({
    folders: z.array(ExportedCloudFolderSchema),
    files: z.array(ExportedCloudFileSchema),
  }),
);
export type ExportedCloud = z.infer<typeof ExportedCloudSchema>;
