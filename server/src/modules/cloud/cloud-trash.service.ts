import type { CloudFile, CloudFolder, CloudTrashItem, PaginationQuery } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PeopleReader } from '../users/people-reader.js';
import { folderNotFound, nameKey } from './cloud-rules.js';
import type { CloudObjects } from './cloud-objects.js';
import type { CloudTrashRepository } from './cloud-trash.repository.js';
import { toCloudFile, toCloudFolder } from './cloud.mapper.js';
import type { CloudRepository } from './cloud.repository.js';

/** Items stay in the trash this long, then the purge deletes them with their stored objects. */
export const TRASH_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Items one purge run handles (the job runs again for the rest). */
const PURGE_BATCH = 200;

export interface CloudTrashServiceDeps {
  scope: DbScope;
  events: EventBus;
  clock: Clock;
  cloud: CloudRepository;
  trash: CloudTrashRepository;
  objects: CloudObjects;
  people: Pick<PeopleReader, 'lockAccount'>;
}

/**
 * `name (restored).ext`: the suffix goes before the extension (none for a folder, a dot file or a name
 * without one), and a number after it while that is taken too.
 */
export function restoredName(name: string, isFile: boolean, attempt: number): string {
  const dot = isFile ? name.lastIndexOf('.') : -1;
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = attempt === 1 ? ' (restored)' : ` (restored ${attempt})`;
  return `${base.slice(0, 255 - suffix.length - ext.length)}${suffix}${ext}`;
}

/** The trash: folders and files deleted, restored to where they were, purged after 30 days. */
export class CloudTrashService {
  constructor(private readonly deps: CloudTrashServiceDeps) {}

  /** A folder to the trash with everything in it. */
  removeFolder(actor: UserActor, id: string) {
    const { scope, cloud, trash, events, clock } = this.deps;
    return scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const folder = await cloud.folder(actor.id, id);
      if (!folder) throw folderNotFound();
      await trash.trashFolder(folder.id, clock.now());
      await events.record(actor, 'cloud.folder_trashed', {
        subject: { resource: 'cloud_folder', id },
        data: { name: folder.name },
      });
      return { message: 'Moved to the trash' };
    });
  }

  async list(actor: UserActor, query: PaginationQuery) {
    const { rows, total } = await this.deps.trash.items(actor.id, (query.page - 1) * query.limit, query.limit);
    const items: CloudTrashItem[] = rows.map((row) => ({
      id: row.id,
      type: row.type,
      name: row.name,
      size: row.size,
      deleted_at: row.deleted_at.toISOString(),
      purge_at: new Date(row.deleted_at.getTime() + TRASH_DAYS * DAY_MS).toISOString(),
    }));
    return {
      items,
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  /**
   * Back into its old folder, or the top if that is gone or in the trash; a name taken meanwhile
   * becomes `name (restored).ext`.
   */
  restore(actor: UserActor, id: string) {
    const { scope, cloud, trash, events } = this.deps;
    return scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const item = await trash.item(actor.id, id);
      if (!item) throw notFound('Trash item');
      const oldParent = item.type === 'folder' ? item.row.parent_id : item.row.folder_id;
      const parent = oldParent === null ? undefined : await cloud.folder(actor.id, oldParent);
      const parentId = parent?.id ?? null;
      let name = item.row.name;
      for (let attempt = 1; await cloud.nameTaken(actor.id, parentId, nameKey(name), id); attempt++) {
        name = restoredName(item.row.name, item.type === 'file', attempt);
      }
      // named and placed while still in the trash, so that it comes back under a free name
      let restored: { file: CloudFile } | { folder: CloudFolder };
      if (item.type === 'file') {
        await cloud.updateFile(id, { name, name_key: nameKey(name), folder_id: parentId });
        await trash.untrash(id);
        restored = { file: toCloudFile((await cloud.file(actor.id, id))!) };
      } else {
        const depth = (parent?.depth ?? 0) + 1;
        await cloud.updateFolder(id, { name, name_key: nameKey(name), parent_id: parentId, depth });
        await cloud.shiftDepthUnder(id, depth - item.row.depth);
        await trash.untrash(id);
        restored = { folder: toCloudFolder((await cloud.folder(actor.id, id))!) };
      }
      await events.record(actor, 'cloud.item_restored', {
        subject: { resource: item.type === 'file' ? 'cloud_file' : 'cloud_folder', id },
        data: { name },
      });
      return restored;
    });
  }

  /** Deletes one item of the trash for good. */
  async remove(actor: UserActor, id: string) {
    await this.deps.scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const item = await this.deps.trash.item(actor.id, id);
      if (!item) throw notFound('Trash item');
      await this.purgeItem(actor, id, item.type);
    });
    return { message: 'Deleted for good' };
  }

  /** Empties the trash: `deleted` is the number of items. */
  async empty(actor: UserActor) {
    return this.deps.scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const items = await this.deps.trash.expired(new Date('9999-12-31T00:00:00.000Z'), 1_000_000, actor.id);
      for (const item of items) await this.purgeItem(actor, item.id, undefined);
      return { deleted: items.length };
    });
  }

  /** The job: items deleted more than 30 days ago go, with their stored objects. */
  async purgeExpired(): Promise<{ purged: number }> {
    const cutoff = new Date(this.deps.clock.now().getTime() - TRASH_DAYS * DAY_MS);
    const items = await this.deps.trash.expired(cutoff, PURGE_BATCH);
    for (const item of items) {
      await this.deps.scope.transaction(async () => {
        const keys = await this.deps.trash.purge(item.id);
        await this.deps.objects.release(keys);
      });
    }
    return { purged: items.length };
  }

  private async purgeItem(actor: UserActor, id: string, type: 'file' | 'folder' | undefined) {
    const keys = await this.deps.trash.purge(id);
    await this.deps.objects.release(keys);
    await this.deps.events.record(actor, 'cloud.item_deleted', {
      subject: { resource: type === 'folder' ? 'cloud_folder' : 'cloud_file', id },
      data: {},
    });
  }
}
