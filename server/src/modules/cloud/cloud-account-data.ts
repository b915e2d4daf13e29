import type { ExportedCloud } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CloudObjects } from './cloud-objects.js';
import type { CloudRepository } from './cloud.repository.js';
import type { CloudFileRow, CloudFolderRow } from './cloud.tables.js';

const deletedAt = (row: { deleted_at: Date | null }) => row.deleted_at?.toISOString() ?? null;

const exportedFolder = (row: CloudFolderRow): ExportedCloud['folders'][number] => ({
  id: row.id,
  name: row.name,
  parent_id: row.parent_id,
  deleted_at: deletedAt(row),
  created_at: row.created_at.toISOString(),
});

const exportedFile = (row: CloudFileRow): ExportedCloud['files'][number] => ({
  id: row.id,
  name: row.name,
  folder_id: row.folder_id,
  size: Number(row.size),
  content_type: row.content_type,
  md5: row.md5,
  version: row.version,
  deleted_at: deletedAt(row),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The cloud's part of an account's export (names, sizes, folders; not the bytes) and of its erasure. */
export class CloudAccountData {
  constructor(private readonly deps: { scope: DbScope; cloud: CloudRepository; objects: CloudObjects }) {}

  async exportFor(owner: UserActor): Promise<{ cloud: ExportedCloud }> {
    const { folders, files } = await this.deps.cloud.allOf(owner.id);
    return { cloud: { folders: folders.map(exportedFolder), files: files.map(exportedFile) } };
  }

  /** Every folder, file and version goes, the trash included; the stored objects once the erasure commits. */
  async eraseFor(owner: UserActor): Promise<{ removed_cloud_files: number; removed_cloud_folders: number }> {
    return this.deps.scope.transaction(async () => {
      const erased = await this.deps.cloud.eraseOwner(owner.id);
      await this.deps.objects.release(erased.keys);
      return { removed_cloud_files: erased.files, removed_cloud_folders: erased.folders };
    });
  }
}
