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

export const CLOUD_EXAMPLES: Record<string, unknown> = {
  CloudFolder: cloudFolder,
  CloudListedFolder: cloudFolder,
  CloudFile: cloudFile,
  CloudFolderReply: { folder: cloudFolder },
  CloudFileReply: { file: cloudFile },
  CloudListing: { folder: cloudFolder, path: [topFolder], folders: [], files: [cloudFile], pagination: onePage(1) },
  CreateCloudFolderRequest: { name: 'Stems', parent_id: TOP_ID },
  UpdateCloudFolderRequest: { name: 'Stems (final)', parent_id: null },
  UpdateCloudFileRequest: { name: 'bass-final.wav', folder_id: FOLDER_ID },
  UploadCloudFileRequest: { file: 'bass-take-3.wav', folder_id: FOLDER_ID },
};
