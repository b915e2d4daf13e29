import { contract } from '@riff/contract';
import { z } from 'zod';
import { signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import type { RiffResponse as Response } from '../../platform/http/http-exchange.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import type { StreamReply } from '../tracks/track-streaming.js';
import { withForm } from '../tracks/uploads.routes.js';
import type { CloudFilesService, CloudUploadFields } from './cloud-files.service.js';
import type { CloudFoldersService } from './cloud-folders.service.js';
import type { CloudTrashService } from './cloud-trash.service.js';

/** Text fields beside the file of POST /cloud/files. */
const UploadFieldsSchema = z.object({
  folder_id: z.string().uuid().optional(),
}) satisfies z.ZodType<CloudUploadFields, z.ZodTypeDef, unknown>;

/** Sets the headers; a stream body is piped by the router, and a failing read ends the reply. */
function reply(res: Response, result: StreamReply) {
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (result.body) {
    if (!Buffer.isBuffer(result.body)) result.body.on('error', () => res.destroy());
    return { status: result.status, body: result.body };
  }
  return { status: result.status, body: undefined };
}

export interface CloudRoutesDeps {
  folders: CloudFoldersService;
  files: CloudFilesService;
  trash: CloudTrashService;
}

export function cloudRoutes({ folders, files, trash }: CloudRoutesDeps) {
  return contractRoutes(contract.cloud, {
    createFolder: async ({ body, req }) => ({
      status: 201,
      body: ok(await folders.create(signedInActor(req), body)),
    }),
    search: async ({ query, req }) => ({ status: 200, body: ok(await folders.search(signedInActor(req), query)) }),
    root: async ({ query, req }) => ({ status: 200, body: ok(await folders.listing(signedInActor(req), null, query)) }),
    folder: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await folders.listing(signedInActor(req), params.id, query)),
    }),
    updateFolder: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await folders.update(signedInActor(req), params.id, body)),
    }),
    uploadFile: async ({ req, res }) => {
      const actor = signedInActor(req);
      const created = await withForm(req, res, { fileField: 'file', schema: UploadFieldsSchema }, (form) =>
        files.upload(actor, form),
      );
      return { status: 201, body: ok(created) };
    },
    file: async ({ params, req }) => ({ status: 200, body: ok(await files.get(signedInActor(req), params.id)) }),
    fileContent: async ({ params, headers, req, res }) => {
      const request = { range: headers.range, ifNoneMatch: headers['if-none-match'], ifRange: headers['if-range'] };
      return reply(res, await files.content(signedInActor(req), params.id, request));
    },
    updateFile: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await files.update(signedInActor(req), params.id, body)),
    }),
    replaceContent: async ({ params, req, res }) => {
      const actor = signedInActor(req);
      const replaced = await withForm(req, res, { fileField: 'file', schema: z.object({}) }, (form) =>
        files.replaceContent(actor, params.id, form),
      );
      return { status: 200, body: ok(replaced) };
    },
    versions: async ({ params, req }) => ({
      status: 200,
      body: ok(await files.versions(signedInActor(req), params.id)),
    }),
    restoreVersion: async ({ params, req }) => ({
      status: 200,
      body: ok(await files.restoreVersion(signedInActor(req), params.id, params.versionId)),
    }),
    removeFile: async ({ params, req }) => ({
      status: 200,
      body: ok(await files.remove(signedInActor(req), params.id)),
    }),
    removeFolder: async ({ params, req }) => ({
      status: 200,
      body: ok(await trash.removeFolder(signedInActor(req), params.id)),
    }),
    trash: async ({ query, req }) => ({ status: 200, body: ok(await trash.list(signedInActor(req), query)) }),
    restoreTrashItem: async ({ params, req }) => ({
      status: 200,
      body: ok(await trash.restore(signedInActor(req), params.id)),
    }),
    deleteTrashItem: async ({ params, req }) => ({
      status: 200,
      body: ok(await trash.remove(signedInActor(req), params.id)),
    }),
    emptyTrash: async ({ req }) => ({ status: 200, body: ok(await trash.empty(signedInActor(req))) }),
  });
}
