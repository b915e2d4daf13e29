import { versionOf } from './cloud.repository.js';
import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CloudFileRow, CloudFolderRow, CloudVersionRow } from './cloud.tables.js';

export interface TrashRow {
  id: string;
  type: 'file' | 'folder';
  name: string;
  size: number;
  deleted_at: Date;
}

/** The SQL of versions and of the trash. */
export class CloudTrashRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** A file's kept versions, newest first. */
  versionsOf(fileId: string): Promise<CloudVersionRow[]> {
    return this.db
      .selectFrom('cloud_file_versions')
      .selectAll()
      .where('file_id', '=', fileId)
      .orderBy('version', 'desc')
      .execute();
  }

  version(fileId: string, versionId: string): Promise<CloudVersionRow | undefined> {
    return this.db
      .selectFrom('cloud_file_versions')
      .selectAll()
      .where('file_id', '=', fileId)
      .where('id', '=', versionId)
      .executeTakeFirst();
  }

  async addVersion(file: CloudFileRow): Promise<void> {
    await this.db.insertInto('cloud_file_versions').values(versionOf(file)).execute();
  }

  /** Removes the versions of a file past the newest `keep`; their storage keys. */
  async pruneVersions(fileId: string, keep: number): Promise<string[]> {
    const old = (await this.versionsOf(fileId)).slice(keep);
    if (old.length === 0) return [];
    await this.db
      .deleteFrom('cloud_file_versions')
      .where(
        'id',
        'in',
        old.map((row) => row.id),
      )
      .execute();
    return old.map((row) => row.storage_key);
  }

  /** Puts a folder in the trash with everything in it not already there. */
  async trashFolder(folderId: string, now: Date): Promise<void> {
    const { rows } = await sql<{ id: string }>`
      with recursive down as (
        select id from cloud_folders where id = ${folderId}
        union all
        select c.id from cloud_folders c join down on c.parent_id = down.id where c.deleted_at is null
      )
      select id from down`.execute(this.db);
    const ids = rows.map((row) => row.id);
    await this.db
      .updateTable('cloud_folders')
      .set({ deleted_at: now, trashed_by: folderId })
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    await this.db
      .updateTable('cloud_files')
      .set({ deleted_at: now, trashed_by: folderId })
      .where('folder_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async trashFile(fileId: string, now: Date): Promise<void> {
    await this.db
      .updateTable('cloud_files')
      .set({ deleted_at: now, trashed_by: fileId })
      .where('id', '=', fileId)
      .execute();
  }

  private itemsSql(ownerId: string) {
    return sql<TrashRow>`
      select id, 'folder' as type, name, deleted_at,
        (select coalesce(sum(f.size), 0) from cloud_files f where f.trashed_by = cloud_folders.id) as size
      from cloud_folders where owner_id = ${ownerId} and trashed_by = id
      union all
      select id, 'file' as type, name, deleted_at, size
      from cloud_files where owner_id = ${ownerId} and trashed_by = id`;
  }

  /** The owner's trash items, most recently deleted first. */
  async items(ownerId: string, offset: number, limit: number): Promise<{ rows: TrashRow[]; total: number }> {
    const { rows } = await sql<TrashRow>`
      select * from (${this.itemsSql(ownerId)}) items order by deleted_at desc, id limit ${limit} offset ${offset}`.execute(
      this.db,
    );
    const { rows: counted } = await sql<{
      n: string;
    }>`select count(*) as n from (${this.itemsSql(ownerId)}) items`.execute(this.db);
    return {
      rows: rows.map((row) => ({ ...row, size: Number(row.size), deleted_at: new Date(row.deleted_at) })),
      total: Number(counted[0]?.n ?? 0),
    };
  }

  /** One item of the owner's trash (a file or a folder deleted as such). */
  async item(
    ownerId: string,
    id: string,
  ): Promise<{ type: 'folder'; row: CloudFolderRow } | { type: 'file'; row: CloudFileRow } | undefined> {
    const folder = await this.db
      .selectFrom('cloud_folders')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('trashed_by', '=', id)
      .executeTakeFirst();
    if (folder) return { type: 'folder', row: folder };
    const file = await this.db
      .selectFrom('cloud_files')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('trashed_by', '=', id)
      .executeTakeFirst();
    return file && { type: 'file', row: file };
  }

  /** Brings back everything the item's deletion put in the trash. */
  async untrash(itemId: string): Promise<void> {
    await this.db
      .updateTable('cloud_folders')
      .set({ deleted_at: null, trashed_by: null })
      .where('trashed_by', '=', itemId)
      .execute();
    await this.db
      .updateTable('cloud_files')
      .set({ deleted_at: null, trashed_by: null })
      .where('trashed_by', '=', itemId)
      .execute();
  }

  /** Trash items deleted before `cutoff` (of one owner, or of everyone), oldest first. */
  async expired(cutoff: Date, limit: number, ownerId?: string): Promise<{ id: string; owner_id: string }[]> {
    const owner = ownerId === undefined ? sql`true` : sql`owner_id = ${ownerId}`;
    const { rows } = await sql<{ id: string; owner_id: string }>`
      select id, owner_id from (
        select id, owner_id, deleted_at from cloud_folders where trashed_by = id and deleted_at < ${cutoff} and ${owner}
        union all
        select id, owner_id, deleted_at from cloud_files where trashed_by = id and deleted_at < ${cutoff} and ${owner}
      ) items order by deleted_at, id limit ${limit}`.execute(this.db);
    return rows;
  }

  /**
   * Deletes an item of the trash for good, with all it holds (a folder: every folder and file under
   * it, whatever their state); the storage keys of the versions that went.
   */
  async purge(id: string): Promise<string[]> {
    const { rows } = await sql<{ storage_key: string }>`
      with recursive down as (
        select id from cloud_folders where id = ${id}
        union all
        select c.id from cloud_folders c join down on c.parent_id = down.id
      )
      select v.storage_key from cloud_file_versions v join cloud_files f on f.id = v.file_id
      where f.id = ${id} or f.folder_id in (select id from down)`.execute(this.db);
    await this.db.deleteFrom('cloud_files').where('id', '=', id).execute();
    await this.db.deleteFrom('cloud_folders').where('id', '=', id).execute();
    return rows.map((row) => row.storage_key);
  }
}
