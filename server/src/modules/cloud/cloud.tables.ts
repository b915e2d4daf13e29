import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface CloudFoldersTable {
  id: Generated<string>;
  owner_id: string;
  /** null at the top. */
  parent_id: string | null;
  name: string;
  /** The name in lower case: names are unique in one folder case-insensitively. */
  name_key: string;
  /** 1 at the top. */
  depth: number;
  /** In the trash since. */
  deleted_at: Timestamp | null;
  /** The trash item that holds it: itself, or the deleted folder it was in. */
  trashed_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CloudFilesTable {
  id: Generated<string>;
  owner_id: string;
  folder_id: string | null;
  name: string;
  name_key: string;
  size: number;
  content_type: string;
  md5: string;
  version: number;
  storage_key: string;
  deleted_at: Timestamp | null;
  trashed_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CloudFileVersionsTable {
  id: Generated<string>;
  file_id: string;
  owner_id: string;
  version: number;
  size: number;
  content_type: string;
  md5: string;
  storage_key: string;
  created_at: CreatedAt;
}

export interface CloudUploadIntentsTable {
  key: string;
  created_at: Generated<Date>;
}

export type CloudFolderRow = Selectable<CloudFoldersTable>;
export type CloudFileRow = Selectable<CloudFilesTable>;
export type CloudVersionRow = Selectable<CloudFileVersionsTable>;

declare module '../../platform/db/database.schema.js' {
  interface Database {
    cloud_folders: CloudFoldersTable;
    cloud_files: CloudFilesTable;
    cloud_file_versions: CloudFileVersionsTable;
    cloud_upload_intents: CloudUploadIntentsTable;
  }
}
