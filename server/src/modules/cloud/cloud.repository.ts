import { sql, type Insertable, type Updateable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { normalForm, searchDoc, type TextQuery } from '../../platform/search/text-search.js';
import type { CloudFileRow, CloudFilesTable, CloudFolderRow, CloudFoldersTable } from './cloud.tables.js';

/** The top has no folder row: nullable parent columns are compared through this. */
const parentIs = (column: string, parentId: string | null) =>
  parentId === null ? sql<boolean>`${sql.ref(column)} is null` : sql<boolean>`${sql.ref(column)} = ${parentId}`;

/** The version row of a file's current content: each content a file takes is kept as a version. */
export const versionOf = (file: CloudFileRow) => ({
  file_id: file.id,
  owner_id: file.owner_id,
  version: file.version,
  size: file.size,
  content_type: file.content_type,
  md5: file.md5,
  storage_key: file.storage_key,
});

/** The SQL of folders, files, their versions and the uploads under way. */
export class CloudRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** A folder of this owner, not in the trash. */
  folder(ownerId: string, id: string): Promise<CloudFolderRow | undefined> {
    return this.db
      .selectFrom('cloud_folders')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** A file of this owner, not in the trash. */
  file(ownerId: string, id: string): Promise<CloudFileRow | undefined> {
    return this.db
      .selectFrom('cloud_files')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Whether a live file or folder of this folder (null: the top) bears the name, another than `exceptId`. */
  async nameTaken(ownerId: string, parentId: string | null, nameKey: string, exceptId?: string): Promise<boolean> {
    const except = exceptId ?? '00000000-0000-0000-0000-000000000000';
    const folder = await this.db
      .selectFrom('cloud_folders')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where(parentIs('parent_id', parentId))
      .where('name_key', '=', nameKey)
      .where('deleted_at', 'is', null)
      .where('id', '!=', except)
      .executeTakeFirst();
    if (folder) return true;
    const file = await this.db
      .selectFrom('cloud_files')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where(parentIs('folder_id', parentId))
      .where('name_key', '=', nameKey)
      .where('deleted_at', 'is', null)
      .where('id', '!=', except)
      .executeTakeFirst();
    return file !== undefined;
  }

  /** Live folders and files directly in this folder (null: the top). */
  async counts(ownerId: string, parentId: string | null): Promise<{ folders: number; files: number }> {
    const folders = await this.db
      .selectFrom('cloud_folders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('owner_id', '=', ownerId)
      .where(parentIs('parent_id', parentId))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const files = await this.db
      .selectFrom('cloud_files')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('owner_id', '=', ownerId)
      .where(parentIs('folder_id', parentId))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { folders: Number(folders.n), files: Number(files.n) };
  }

  foldersIn(ownerId: string, parentId: string | null, offset: number, limit: number): Promise<CloudFolderRow[]> {
    return this.db
      .selectFrom('cloud_folders')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(parentIs('parent_id', parentId))
      .where('deleted_at', 'is', null)
      .orderBy('name_key')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  filesIn(ownerId: string, parentId: string | null, offset: number, limit: number): Promise<CloudFileRow[]> {
    return this.db
      .selectFrom('cloud_files')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(parentIs('folder_id', parentId))
      .where('deleted_at', 'is', null)
      .orderBy('name_key')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  /** The folder and its ancestors, from the top down. */
  async chain(id: string): Promise<CloudFolderRow[]> {
    const { rows } = await sql<CloudFolderRow>`
      with recursive up as (
        select f.*, 0 as step from cloud_folders f where f.id = ${id}
        union all
        select p.*, up.step + 1 from cloud_folders p join up on p.id = up.parent_id
      )
      select id, owner_id, parent_id, name, name_key, depth, deleted_at, trashed_by, created_at, updated_at
      from up order by step desc`.execute(this.db);
    return rows;
  }

  /** The deepest level inside this folder's subtree (its own depth when it holds no folder). */
  async deepestUnder(id: string): Promise<number> {
    const { rows } = await sql<{ deepest: number }>`
      with recursive down as (
        select id, depth from cloud_folders where id = ${id}
        union all
        select c.id, c.depth from cloud_folders c join down on c.parent_id = down.id
      )
      select max(depth)::int as deepest from down`.execute(this.db);
    return Number(rows[0]?.deepest ?? 0);
  }

  insertFolder(values: Insertable<CloudFoldersTable>): Promise<CloudFolderRow> {
    return this.db.insertInto('cloud_folders').values(values).returningAll().executeTakeFirstOrThrow();
  }

  updateFolder(id: string, values: Updateable<CloudFoldersTable>): Promise<CloudFolderRow> {
    return this.db
      .updateTable('cloud_folders')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Moves the depth of every folder under this one (not itself) by `delta`. */
  async shiftDepthUnder(id: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await sql`
      with recursive down as (
        select id from cloud_folders where parent_id = ${id}
        union all
        select c.id from cloud_folders c join down on c.parent_id = down.id
      )
      update cloud_folders set depth = depth + ${delta} where id in (select id from down)`.execute(this.db);
  }

  /** A new file with its first version. */
  async insertFile(values: Insertable<CloudFilesTable> & { id: string }): Promise<CloudFileRow> {
    const file = await this.db.insertInto('cloud_files').values(values).returningAll().executeTakeFirstOrThrow();
    await this.db.insertInto('cloud_file_versions').values(versionOf(file)).execute();
    return file;
  }

  updateFile(id: string, values: Updateable<CloudFilesTable>): Promise<CloudFileRow> {
    return this.db
      .updateTable('cloud_files')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Bytes this owner's cloud holds: every kept version of every file, in the trash or not. */
  /** Every folder and file of the account, the trash included, by name (the account export). */
  async allOf(ownerId: string): Promise<{ folders: CloudFolderRow[]; files: CloudFileRow[] }> {
    const [folders, files] = await Promise.all([
      this.db
        .selectFrom('cloud_folders')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('name_key')
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('cloud_files')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('name_key')
        .orderBy('id')
        .execute(),
    ]);
    return { folders, files };
  }

  /**
   * Account erasure: every folder, file and version of the account, wherever they are (the trash
   * included); the storage keys its versions named.
   */
  async eraseOwner(ownerId: string): Promise<{ folders: number; files: number; keys: string[] }> {
    const versions = await this.db
      .selectFrom('cloud_file_versions')
      .select('storage_key')
      .where('owner_id', '=', ownerId)
      .execute();
    // files first: a folder's deletion would take its files along uncounted
    const files = await this.db.deleteFrom('cloud_files').where('owner_id', '=', ownerId).executeTakeFirst();
    const folders = await this.db.deleteFrom('cloud_folders').where('owner_id', '=', ownerId).executeTakeFirst();
    return {
      files: Number(files.numDeletedRows),
      folders: Number(folders.numDeletedRows),
      keys: versions.map((row) => row.storage_key),
    };
  }

  async bytesOf(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('cloud_file_versions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('size'), sql<string>`0`).as('bytes'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  async addIntent(key: string): Promise<void> {
    await this.db
      .insertInto('cloud_upload_intents')
      .values({ key })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async removeIntent(key: string): Promise<void> {
    await this.db.deleteFrom('cloud_upload_intents').where('key', '=', key).execute();
  }

  /** Keys whose upload started before `cutoff` and never ended (the process died under it). */
  async staleIntents(cutoff: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('cloud_upload_intents')
      .select('key')
      .where('created_at', '<', cutoff)
      .execute();
    return rows.map((row) => row.key);
  }

  /** Whether a version still stores its content under this key. */
  async keyInUse(key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('cloud_file_versions')
      .select('id')
      .where('storage_key', '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The owner's live files and folders whose name matches, best first; one page of them and the total. */
  async search(
    ownerId: string,
    text: TextQuery,
    type: 'file' | 'folder' | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: { id: string; type: 'file' | 'folder' }[]; total: number }> {
    const folders = type === 'file' ? sql`false` : sql`true`;
    const files = type === 'folder' ? sql`false` : sql`true`;
    const items = sql`
      select id, 'folder' as type, name, ${searchDoc(sql.ref('name'))} as doc from cloud_folders
        where owner_id = ${ownerId} and deleted_at is null and ${folders}
      union all
      select id, 'file' as type, name, ${searchDoc(sql.ref('name'))} as doc from cloud_files
        where owner_id = ${ownerId} and deleted_at is null and ${files}`;
    const doc = sql<string>`items.doc`;
    const { rows } = await sql<{ id: string; type: 'file' | 'folder'; total: string }>`
      select id, type, count(*) over () as total from (${items}) items
      where ${text.matches(doc)}
      order by ${text.tier([normalForm(sql`items.name`)], doc)}, ${text.closeness(doc)} desc, items.name, id
      limit ${limit} offset ${offset}`.execute(this.db);
    if (rows.length > 0 || offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
    const { rows: counted } = await sql<{ n: string }>`
      select count(*) as n from (${items}) items where ${text.matches(doc)}`.execute(this.db);
    return { rows, total: Number(counted[0]?.n ?? 0) };
  }
}
