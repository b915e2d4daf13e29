/** Examples of the cloud area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, onePage, UPDATED } from '../../common/common.examples.js';

const TOP_ID = '5b1d3f7a-9c2e-4a6b-8d0f-2e4a6c8b0d1f';
const FOLDER_ID = '7c3e5a9b-1d4f-4b8c-9e2a-4f6b8d0c2e3a';
const FILE_ID = '9e5a7c1d-3f6b-4d0e-8a4c-6b8d0f2e4a5c';

export const cloudFolder = {
  id: FOLDER_ID,
  name: 'Stems',
  parent_id: TOP_ID,
  created_at: CREATED,
  updated_at: UPDATED,
};
const topFolder = { id: TOP_ID, name: 'Album 2026', parent_id: null, created_at: CREATED, updated_at: UPDATED };

export const cloudFile = {
  id: FILE_ID,
  name: 'bass-take-3.wav',
  folder_id: FOLDER_ID,
  size: 18_874_412,
  content_type: 'audio/wav',
  md5: '9e107d9d372bb6826bd81d3542a419d6',
  version: 2,
  created_at: CREATED,
  updated_at: UPDATED,
};

const VERSION_ID = '2a4c6e8f-0b1d-4f3a-8c5e-7a9b1d3f5e6a';
const version = {
  id: VERSION_ID,
  version: 2,
  size: 18_874_412,
  md5: cloudFile.md5,
  created_at: UPDATED,
  is_current: true,
};
const trashItem = {
  id: FILE_ID,
  type: 'file',
  name: 'bass-take-2.wav',
  size: 18_874_000,
  deleted_at: '2026-11-21T10:00:00.000Z',
  purge_at: '2026-12-21T10:00:00.000Z',
};

const { updated_at: _updated, ...folderFields } = cloudFolder;
const exportedFolder = { ...folderFields, deleted_at: null };
const exportedFile = { ...cloudFile, deleted_at: null };

export const CLOUD_EXAMPLES: Record<string, unknown> = {
  CloudFolder: cloudFolder,
  CloudListedFolder: cloudFolder,
  CloudFile: cloudFile,
  ExportedCloudFolder: exportedFolder,
  ExportedCloudFile: exportedFile,
  ExportedCloud: { folders: [exportedFolder], files: [exportedFile] },
  CloudFolderReply: { folder: cloudFolder },
  CloudFileReply: { file: cloudFile },
  CloudListing: { folder: cloudFolder, path: [topFolder], folders: [], files: [cloudFile], pagination: onePage(1) },
  CreateCloudFolderRequest: { name: 'Stems', parent_id: TOP_ID },
  UpdateCloudFolderRequest: { name: 'Stems (final)', parent_id: null },
  UpdateCloudFileRequest: { name: 'bass-final.wav', folder_id: FOLDER_ID },
  UploadCloudFileRequest: { file: 'bass-take-3.wav', folder_id: FOLDER_ID },
  ReplaceCloudFileRequest: { file: 'bass-take-4.wav' },
  CloudFileVersion: version,
  CloudFileVersions: { versions: [version, { ...version, id: TOP_ID, version: 1, is_current: false }] },
  CloudTrashItem: trashItem,
  CloudTrashPage: { items: [trashItem], pagination: onePage(1) },
  CloudRestored: { file: cloudFile },
  CloudTrashEmptied: { deleted: 3 },
  CloudSearchResult: { type: 'file', file: cloudFile },
  CloudSearchPage: {
    results: [
      { type: 'folder', folder: cloudFolder },
      { type: 'file', file: cloudFile },
    ],
    pagination: onePage(2),
  },
};
