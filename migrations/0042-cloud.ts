import { sql, type Kysely } from 'kysely';

/**
 * Cloud: a musician's file storage.
 *
 * - cloud_folders: nested folders; depth is 1 at the top. name_key is the name in lower case: names
 *   are unique among the files and folders of one folder case-insensitively (the service checks the
 *   two tables together under the account lock; these indexes hold each table on its own).
 *   deleted_at marks a folder in the trash; trashed_by is the item whose deletion put it there (itself
 *   for an item of the trash list, its deleted folder for what was inside). Both tables alike.
 * - cloud_files: a file and its current content (size, content type, md5, version, storage key).
 * - cloud_file_versions: every kept content of a file, the current one included (at most ten); the
 *   sum of their sizes is what the cloud holds of an account's quota, trash included.
 * - cloud_upload_intents: storage keys being written; one left behind by a crash is removed by the cleanup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table cloud_folders (
    id uuid primary key default gen_random_uuid(),
    owner_id uuid not null references users(id) on delete cascade,
    parent_id uuid references cloud_folders(id) on delete cascade,
    name text not null, name_key text not null,
    depth integer not null check (depth between 1 and 32),
    deleted_at timestamptz, trashed_by uuid,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index cloud_folders_name on cloud_folders
    (owner_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), name_key) where deleted_at is null`.execute(
    db,
  );
  await sql`create index cloud_folders_parent on cloud_folders (parent_id)`.execute(db);
  await sql`create table cloud_files (
    id uuid primary key default gen_random_uuid(),
    owner_id uuid not null references users(id) on delete cascade,
    folder_id uuid references cloud_folders(id) on delete cascade,
    name text not null, name_key text not null,
    size bigint not null, content_type text not null, md5 text not null,
    version integer not null, storage_key text not null,
    deleted_at timestamptz, trashed_by uuid,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index cloud_files_name on cloud_files
    (owner_id, coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), name_key) where deleted_at is null`.execute(
    db,
  );
  await sql`create index cloud_files_folder on cloud_files (folder_id)`.execute(db);
  await sql`create index cloud_folders_trash on cloud_folders (owner_id, deleted_at) where trashed_by = id`.execute(db);
  await sql`create index cloud_files_trash on cloud_files (owner_id, deleted_at) where trashed_by = id`.execute(db);
  await sql`create index cloud_files_trashed_by on cloud_files (trashed_by) where trashed_by is not null`.execute(db);
  await sql`create index cloud_folders_trashed_by on cloud_folders (trashed_by) where trashed_by is not null`.execute(
    db,
  );
  await sql`create table cloud_file_versions (
    id uuid primary key default gen_random_uuid(),
    file_id uuid not null references cloud_files(id) on delete cascade,
    owner_id uuid not null references users(id) on delete cascade,
    version integer not null,
    size bigint not null, content_type text not null, md5 text not null, storage_key text not null,
    created_at timestamptz not null default now(),
    unique (file_id, version)
  )`.execute(db);
  await sql`create index cloud_file_versions_owner on cloud_file_versions (owner_id)`.execute(db);
  await sql`create table cloud_upload_intents (
    key text primary key,
    created_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['cloud_upload_intents', 'cloud_file_versions', 'cloud_files', 'cloud_folders']) {
    await sql.raw(`drop table ${table}`).execute(db);
  }
}
