import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import { binaryField, fileField, StreamHeadersSchema } from '../tracks/tracks.schemas.js';
import {
  CLOUD_FOLDER_MAX_ITEMS,
  CLOUD_MAX_DEPTH,
  CloudEmptiedEnvelope,
  CloudFileEnvelope,
  CloudFileVersionsEnvelope,
  CloudRestoredEnvelope,
  CloudSearchEnvelope,
  CloudSearchQuerySchema,
  CloudTrashPageEnvelope,
  CloudVersionParamsSchema,
  CloudFolderEnvelope,
  CloudListingEnvelope,
  CloudListingQuerySchema,
  CreateCloudFolderRequestSchema,
  UpdateCloudFileRequestSchema,
  UpdateCloudFolderRequestSchema,
} from './cloud.schemas.js';

const c = initContract();

const MINE =
  ' Only the owner sees their files and folders: another user’s id, anywhere in the path or the body, is 404.';
const NAMES =
  ' Names are 1–255 characters without `/` or NUL, not `.` or `..`, unique among the files and folders of one folder ' +
  `compared case-insensitively (409 NAME_TAKEN). At most ${CLOUD_FOLDER_MAX_ITEMS} items in one folder (400 LIMIT_REACHED).`;
const LISTING =
  'One page covers the folders then the files, each by name (case-insensitively); `path` holds the ancestors from the top down.';

/** A musician's file storage: folders, files and their content. */
export const cloudContract = c.router({
  createFolder: {
    method: 'POST',
    path: '/cloud/folders',
    summary: 'Create a folder',
    description:
      `In \`parent_id\`, or at the top. A top-level folder is at depth 1, at most ${CLOUD_MAX_DEPTH} (deeper: 400).` +
      NAMES +
      MINE,
    metadata: userRoute,
    body: CreateCloudFolderRequestSchema,
    responses: { 201: CloudFolderEnvelope, ...errors(400, 401, 404, 409, 413, 415) },
  },
  search: {
    method: 'GET',
    path: '/cloud/search',
    summary: 'Search my files and folders',
    description:
      'By name, over the caller’s own files and folders not in the trash, with the engine of /search (case and accents ' +
      'ignored, typos tolerated), best match first.',
    metadata: userRoute,
    query: CloudSearchQuerySchema,
    responses: { 200: CloudSearchEnvelope, ...errors(400, 401) },
  },
  root: {
    method: 'GET',
    path: '/cloud/root',
    summary: 'The top of my storage',
    description: `${LISTING} \`folder\` is null and \`path\` empty.`,
    metadata: userRoute,
    query: CloudListingQuerySchema,
    responses: { 200: CloudListingEnvelope, ...errors(400, 401) },
  },
  folder: {
    method: 'GET',
    path: '/cloud/folders/:id',
    summary: 'A folder and what it holds',
    description: LISTING + MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: CloudListingQuerySchema,
    responses: { 200: CloudListingEnvelope, ...errors(400, 401, 404) },
  },
  updateFolder: {
    method: 'PUT',
    path: '/cloud/folders/:id',
    summary: 'Rename or move a folder',
    description:
      'Moving a folder into itself or one of its descendants, or so that something in it would be deeper than ' +
      `${CLOUD_MAX_DEPTH} levels: 400.` +
      NAMES +
      MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateCloudFolderRequestSchema,
    responses: { 200: CloudFolderEnvelope, ...errors(400, 401, 404, 409, 413, 415) },
  },
  uploadFile: {
    method: 'POST',
    path: '/cloud/files',
    summary: 'Upload a file',
    description:
      'multipart/form-data with the bytes in field `file` and `folder_id` (optional; the top when absent). Streamed to ' +
      'storage, any content, up to CLOUD_MAX_FILE_BYTES (2 GiB by default; 413 PAYLOAD_TOO_LARGE beyond) and within the ' +
      'quota shared with tracks (403 QUOTA_EXCEEDED). The content type is recognised from the bytes; the name is the ' +
      'file part’s name (never used as a storage path). A failed or cut upload leaves nothing stored.' +
      NAMES +
      MINE,
    metadata: userRoute,
    contentType: 'multipart/form-data',
    body: named(
      'UploadCloudFileRequest',
      z.object({
        file: fileField('The bytes'),
        folder_id: z.string().uuid().optional().describe('The folder to put it in; the top when absent'),
      }),
    ).optional(),
    responses: { 201: CloudFileEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  file: {
    method: 'GET',
    path: '/cloud/files/:id',
    summary: 'A file',
    description: MINE.trim(),
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: CloudFileEnvelope, ...errors(400, 401, 404) },
  },
  fileContent: {
    method: 'GET',
    path: '/cloud/files/:id/content',
    summary: 'Download a file',
    description:
      'The bytes with Range (206, 416), Accept-Ranges, ETag (the md5), If-None-Match and Content-Disposition: attachment ' +
      "with the name per RFC 6266 (`filename*=UTF-8''…`). On S3 storage: 302 to a presigned URL valid 5 minutes." +
      MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    headers: StreamHeadersSchema,
    responses: {
      200: c.otherResponse({ contentType: '*/*', body: binaryField('The file (its recognised content type)') }),
      206: c.otherResponse({ contentType: '*/*', body: binaryField('The range asked for') }),
      302: c.noBody(),
      304: c.noBody(),
      ...errors(400, 401, 404, 416),
    },
  },
  updateFile: {
    method: 'PUT',
    path: '/cloud/files/:id',
    summary: 'Rename or move a file',
    description: NAMES.trim() + MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateCloudFileRequestSchema,
    responses: { 200: CloudFileEnvelope, ...errors(400, 401, 404, 409, 413, 415) },
  },
  replaceContent: {
    method: 'PUT',
    path: '/cloud/files/:id/content',
    summary: 'New content for a file',
    description:
      'multipart/form-data with the bytes in field `file`, as POST /cloud/files: the file’s next version. A file keeps ten ' +
      'versions, the current one included; the oldest beyond goes with its stored content. Every kept version counts in ' +
      'the quota.' +
      MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    contentType: 'multipart/form-data',
    body: named('ReplaceCloudFileRequest', z.object({ file: fileField('The bytes') })).optional(),
    responses: { 200: CloudFileEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  versions: {
    method: 'GET',
    path: '/cloud/files/:id/versions',
    summary: 'A file’s versions',
    description: 'Newest first, at most ten, the current one included.' + MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: CloudFileVersionsEnvelope, ...errors(400, 401, 404) },
  },
  restoreVersion: {
    method: 'POST',
    path: '/cloud/files/:id/versions/:versionId/restore',
    summary: 'Restore a version',
    description: 'A new version with that version’s content (the versions between are kept).' + MINE,
    metadata: userRoute,
    pathParams: CloudVersionParamsSchema,
    body: c.noBody(),
    responses: { 200: CloudFileEnvelope, ...errors(400, 401, 403, 404) },
  },
  removeFile: {
    method: 'DELETE',
    path: '/cloud/files/:id',
    summary: 'Move a file to the trash',
    description:
      'It is 404 on every other route until restored, and deleted for good 30 days later. It still counts in the quota.' +
      MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 404) },
  },
  removeFolder: {
    method: 'DELETE',
    path: '/cloud/folders/:id',
    summary: 'Move a folder to the trash',
    description: 'With everything inside (one item of the trash).' + MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 404) },
  },
  trash: {
    method: 'GET',
    path: '/cloud/trash',
    summary: 'My trash',
    description:
      'Files and folders deleted (a folder is one item), most recently deleted first, each with its purge date.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: CloudTrashPageEnvelope, ...errors(400, 401) },
  },
  restoreTrashItem: {
    method: 'POST',
    path: '/cloud/trash/:id/restore',
    summary: 'Restore from the trash',
    description:
      'Into its old folder, or the top if that is gone or in the trash; a name taken meanwhile becomes `name (restored).ext`. ' +
      'Answers `file` or `folder`.' +
      MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: CloudRestoredEnvelope, ...errors(400, 401, 404) },
  },
  deleteTrashItem: {
    method: 'DELETE',
    path: '/cloud/trash/:id',
    summary: 'Delete from the trash for good',
    description: 'With its stored content (a folder: everything in it).' + MINE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 404) },
  },
  emptyTrash: {
    method: 'DELETE',
    path: '/cloud/trash',
    summary: 'Empty the trash',
    description: 'Every item deleted for good, with its stored content.',
    metadata: userRoute,
    body: c.noBody(),
    responses: { 200: CloudEmptiedEnvelope, ...errors(401) },
  },
});
