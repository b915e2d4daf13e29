import type { CloudFile, CloudFolder } from '@riff/contract';
import type { CloudFileRow, CloudFolderRow } from './cloud.tables.js';

export const toCloudFolder = (row: CloudFolderRow): CloudFolder => ({
  id: row.id,
  name: row.name,
  parent_id: row.parent_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toCloudFile = (row: CloudFileRow): CloudFile => ({
  id: row.id,
  name: row.name,
  folder_id: row.folder_id,
  size: Number(row.size),
  content_type: row.content_type,
  md5: row.md5,
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
