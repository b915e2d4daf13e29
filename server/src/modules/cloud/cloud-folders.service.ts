import {
  CLOUD_MAX_DEPTH,
  type CloudListingQuery,
  type CloudSearchQuery,
  type CreateCloudFolderRequest,
  type UpdateCloudFolderRequest,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { invalidField, limitReached } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { withTypoFallback } from '../../platform/search/text-search.js';
import type { PeopleReader } from '../users/people-reader.js';
import { assertRoomFor, checkedName, folderNotFound, nameKey, tooDeep } from './cloud-rules.js';
import { toCloudFile, toCloudFolder } from './cloud.mapper.js';
import type { CloudRepository } from './cloud.repository.js';

export interface CloudFoldersServiceDeps {
  scope: DbScope;
  events: EventBus;
  cloud: CloudRepository;
  /** The users area's account lock: one account's cloud changes run one at a time (names, moves, limits). */
  people: Pick<PeopleReader, 'lockAccount'>;
  limits: { folderMaxItems: number };
}

/** Folders: creation, listing with the path, rename and move (never into themselves, never too deep). */
export class CloudFoldersService {
  constructor(private readonly deps: CloudFoldersServiceDeps) {}

  create(actor: UserActor, body: CreateCloudFolderRequest) {
    const { scope, cloud, events, people } = this.deps;
    const name = checkedName(body.name);
    const parentId = body.parent_id ?? null;
    return scope.transaction(async () => {
      await people.lockAccount(actor.id);
      const parent = parentId === null ? undefined : await cloud.folder(actor.id, parentId);
      if (parentId !== null && !parent) throw folderNotFound();
      const depth = (parent?.depth ?? 0) + 1;
      if (depth > CLOUD_MAX_DEPTH) throw tooDeep();
      await assertRoomFor(cloud, actor.id, parentId, name, this.deps.limits.folderMaxItems);
      const row = await cloud.insertFolder({
        owner_id: actor.id,
        parent_id: parentId,
        name,
        name_key: nameKey(name),
        depth,
      });
      await events.record(actor, 'cloud.folder_created', {
        subject: { resource: 'cloud_folder', id: row.id },
        data: { name },
      });
      return { folder: toCloudFolder(row) };
    });
  }

  /** A folder (null: the top) and one page of what it holds: folders first, then files, each by name. */
  async listing(actor: UserActor, folderId: string | null, query: CloudListingQuery) {
    const { cloud } = this.deps;
    const folder = folderId === null ? undefined : await cloud.folder(actor.id, folderId);
    if (folderId !== null && !folder) throw folderNotFound();
    const path = folder ? (await cloud.chain(folder.id)).slice(0, -1) : [];
    const counts = await cloud.counts(actor.id, folderId);
    const offset = (query.page - 1) * query.limit;
    const folders = offset < counts.folders ? await cloud.foldersIn(actor.id, folderId, offset, query.limit) : [];
    const room = query.limit - folders.length;
    const files = room > 0 ? await cloud.filesIn(actor.id, folderId, Math.max(0, offset - counts.folders), room) : [];
    const total = counts.folders + counts.files;
    return {
      folder: folder ? toCloudFolder(folder) : null,
      path: path.map(toCloudFolder),
      folders: folders.map(toCloudFolder),
      files: files.map(toCloudFile),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  /** The caller's own live files and folders by name, with the engine of /search (typos tolerated when nothing matches exactly). */
  async search(actor: UserActor, query: CloudSearchQuery) {
    const { cloud } = this.deps;
    const offset = (query.page - 1) * query.limit;
    const { rows, total } = await withTypoFallback(query.q, (text) =>
      cloud.search(actor.id, text, query.type, offset, query.limit),
    );
    const results = await Promise.all(
      rows.map(async (row) => {
        if (row.type === 'folder') {
          const folder = await cloud.folder(actor.id, row.id);
          return { type: row.type, folder: folder && toCloudFolder(folder) };
        }
        const file = await cloud.file(actor.id, row.id);
        return { type: row.type, file: file && toCloudFile(file) };
      }),
    );
    return {
      // an item deleted between the two reads is left out
      results: results.filter((result) => result.file ?? result.folder),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  /** Rename and move: into itself or a descendant is 400, as is a move that would nest anything deeper than the limit. */
  update(actor: UserActor, id: string, body: UpdateCloudFolderRequest) {
    const { scope, cloud, events, people } = this.deps;
    return scope.transaction(async () => {
      await people.lockAccount(actor.id);
      const folder = await cloud.folder(actor.id, id);
      if (!folder) throw folderNotFound();
      const name = body.name === undefined ? folder.name : checkedName(body.name);
      const parentId = body.parent_id === undefined ? folder.parent_id : body.parent_id;
      const moved = parentId !== folder.parent_id;
      let depth = folder.depth;
      if (moved) {
        if (parentId !== null) {
          const target = await cloud.folder(actor.id, parentId);
          if (!target) throw folderNotFound();
          const chain = await cloud.chain(target.id);
          if (chain.some((ancestor) => ancestor.id === folder.id))
            throw invalidField('parent_id', 'A folder cannot move into itself or one of its folders', parentId);
          depth = target.depth + 1;
        } else depth = 1;
        const deepest = await cloud.deepestUnder(folder.id);
        if (deepest - folder.depth + depth > CLOUD_MAX_DEPTH) throw tooDeep();
        const { folders, files } = await cloud.counts(actor.id, parentId);
        if (folders + files >= this.deps.limits.folderMaxItems)
          throw limitReached(`A folder holds at most ${this.deps.limits.folderMaxItems} files and folders`);
      }
      if (moved || name !== folder.name) await assertRoomFor(cloud, actor.id, parentId, name, Infinity, folder.id);
      const row = await cloud.updateFolder(folder.id, { name, name_key: nameKey(name), parent_id: parentId, depth });
      await cloud.shiftDepthUnder(folder.id, depth - folder.depth);
      await events.record(actor, 'cloud.folder_updated', {
        subject: { resource: 'cloud_folder', id: row.id },
        data: { name, moved },
      });
      return { folder: toCloudFolder(row) };
    });
  }
}
