import { randomUUID } from 'node:crypto';
import type { UpdateCloudFileRequest } from '@riff/contract';
import type { Logger } from 'pino';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { PeopleReader } from '../users/people-reader.js';
import { quotaExceeded, type IncomingForm, type UploadAllowance } from '../tracks/upload-pipeline.js';
import { contentInspector, type InspectedContent } from './cloud-content.js';
import { contentKey, folderOfKey, type CloudObjects } from './cloud-objects.js';
import { assertRoomFor, checkedName, fileNotFound, nameKey } from './cloud-rules.js';
import { serveContent } from './cloud-streaming.js';
import { toCloudFile } from './cloud.mapper.js';
import type { CloudRepository } from './cloud.repository.js';
import type { CloudTrashRepository } from './cloud-trash.repository.js';

/** Room for multipart framing and the small text fields beside the file. */
const MULTIPART_OVERHEAD = 16 * 1024;
/** A storage intent older than this belongs to an upload whose process died. */
const INTENT_TTL_MS = 24 * 60 * 60 * 1000;
/** A file keeps this many versions, the current one included. */
export const VERSIONS_KEPT = 10;

/** The text fields beside the file of POST /cloud/files, once checked. */
export interface CloudUploadFields {
  folder_id?: string | undefined;
}

export interface CloudFilesServiceDeps {
  scope: DbScope;
  events: EventBus;
  cloud: CloudRepository;
  trash: CloudTrashRepository;
  objects: CloudObjects;
  storage: ObjectStorage;
  clock: Clock;
  logger: Logger;
  people: Pick<PeopleReader, 'lockAccount'>;
  /** The tracks area's quota port: the space left is shared with tracks. */
  quota: {
    allowed(userId: string): Promise<UploadAllowance>;
    room(userId: string, quotaBytes: number): Promise<number>;
  };
  limits: { maxFileBytes: number; folderMaxItems: number };
}

/** Files: uploads streamed to storage under generated keys, their content served with ranges, rename and move. */
export class CloudFilesService {
  constructor(private readonly deps: CloudFilesServiceDeps) {}

  async get(actor: UserActor, id: string) {
    const file = await this.deps.cloud.file(actor.id, id);
    if (!file) throw fileNotFound();
    return { file: toCloudFile(file) };
  }

  /**
   * The file streams to storage under a generated key as it arrives (counted, hashed and sniffed on
   * the way); its row exists once it is stored whole and fits the folder and the quota. Anything
   * that fails, the client going away included, removes what was written.
   */
  async upload(actor: UserActor, form: IncomingForm<CloudUploadFields>) {
    const { cloud, quota, limits } = this.deps;
    return this.receive(actor, form, async ({ fields, file, key, quotaBytes }) => {
      const name = checkedName(file.filename ?? '', 'file');
      return this.deps.scope.transaction(async () => {
        await this.deps.people.lockAccount(actor.id);
        const folderId = fields.folder_id ?? null;
        await assertRoomFor(cloud, actor.id, folderId, name, limits.folderMaxItems);
        if (file.bytes > (await quota.room(actor.id, quotaBytes))) throw quotaExceeded();
        const row = await cloud.insertFile({
          id: randomUUID(),
          owner_id: actor.id,
          folder_id: folderId,
          name,
          name_key: nameKey(name),
          size: file.bytes,
          content_type: file.contentType,
          md5: file.md5,
          version: 1,
          storage_key: key,
        });
        await cloud.removeIntent(key);
        await this.deps.events.record(actor, 'cloud.file_created', {
          subject: { resource: 'cloud_file', id: row.id },
          data: { name, size: file.bytes, content_type: file.contentType },
        });
        return { file: toCloudFile(row) };
      });
    });
  }

  /** New content for a file: the next version; the oldest beyond ten goes with its object. */
  async replaceContent(actor: UserActor, id: string, form: IncomingForm<Record<string, never>>) {
    if (!(await this.deps.cloud.file(actor.id, id))) throw fileNotFound();
    return this.receive(actor, form, ({ file, key, quotaBytes }) =>
      this.newVersion(actor, id, quotaBytes, { ...file, key }, async () => {
        await this.deps.cloud.removeIntent(key);
      }),
    );
  }

  /** The kept versions, newest first (the current one included). */
  async versions(actor: UserActor, id: string) {
    const file = await this.deps.cloud.file(actor.id, id);
    if (!file) throw fileNotFound();
    const rows = await this.deps.trash.versionsOf(file.id);
    return {
      versions: rows.map((row) => ({
        id: row.id,
        version: row.version,
        size: Number(row.size),
        md5: row.md5,
        created_at: row.created_at.toISOString(),
        is_current: row.version === file.version,
      })),
    };
  }

  /** A kept version's content becomes the next version (sharing its stored object). */
  async restoreVersion(actor: UserActor, id: string, versionId: string) {
    const file = await this.deps.cloud.file(actor.id, id);
    if (!file) throw fileNotFound();
    const version = await this.deps.trash.version(file.id, versionId);
    if (!version) throw notFound('Version');
    const { quotaBytes } = await this.deps.quota.allowed(actor.id);
    return this.newVersion(actor, id, quotaBytes, {
      bytes: Number(version.size),
      md5: version.md5,
      contentType: version.content_type,
      key: version.storage_key,
    });
  }

  private newVersion(
    actor: UserActor,
    id: string,
    quotaBytes: number,
    content: { bytes: number; md5: string; contentType: string; key: string },
    alongside?: () => Promise<void>,
  ) {
    const { cloud, trash, quota, events, objects } = this.deps;
    return this.deps.scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const file = await cloud.file(actor.id, id);
      if (!file) throw fileNotFound();
      const kept = await trash.versionsOf(file.id);
      const freed = kept.slice(VERSIONS_KEPT - 1).reduce((sum, row) => sum + Number(row.size), 0);
      if (content.bytes - freed > (await quota.room(actor.id, quotaBytes))) throw quotaExceeded();
      const row = await cloud.updateFile(file.id, {
        size: content.bytes,
        md5: content.md5,
        content_type: content.contentType,
        storage_key: content.key,
        version: file.version + 1,
      });
      await trash.addVersion(row);
      await objects.release(await trash.pruneVersions(file.id, VERSIONS_KEPT));
      await alongside?.();
      await events.record(actor, 'cloud.file_versioned', {
        subject: { resource: 'cloud_file', id: row.id },
        data: { version: row.version, size: content.bytes },
      });
      return { file: toCloudFile(row) };
    });
  }

  /** To the trash. */
  remove(actor: UserActor, id: string) {
    const { cloud, trash, events, clock } = this.deps;
    return this.deps.scope.transaction(async () => {
      await this.deps.people.lockAccount(actor.id);
      const file = await cloud.file(actor.id, id);
      if (!file) throw fileNotFound();
      await trash.trashFile(file.id, clock.now());
      await events.record(actor, 'cloud.file_trashed', {
        subject: { resource: 'cloud_file', id },
        data: { name: file.name },
      });
      return { message: 'Moved to the trash' };
    });
  }

  /** Streams the form's file to storage under a new key, then runs `commit`; any failure removes what was written. */
  private async receive<F, T>(
    actor: UserActor,
    form: IncomingForm<F>,
    commit: (received: {
      fields: F;
      file: InspectedContent & { filename: string };
      key: string;
      quotaBytes: number;
    }) => Promise<T>,
  ): Promise<T> {
    const { cloud, storage, quota, limits } = this.deps;
    const { quotaBytes } = await quota.allowed(actor.id);
    const declared = form.declaredBytes;
    if (declared !== undefined && declared > limits.maxFileBytes + MULTIPART_OVERHEAD) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${limits.maxFileBytes} bytes`);
    }
    const room = await quota.room(actor.id, quotaBytes);
    if (declared !== undefined && declared > room + MULTIPART_OVERHEAD) throw quotaExceeded();
    const key = contentKey(randomUUID());
    await cloud.addIntent(key);
    try {
      const { fields, file } = await form.receive(limits.maxFileBytes, async (stream, info) => {
        const inspector = contentInspector({ maxBytes: room, overLimit: quotaExceeded });
        stream.on('error', (error) => inspector.stream.destroy(error));
        await storage.put(key, stream.pipe(inspector.stream));
        return { ...inspector.result(), filename: info.filename };
      });
      if (!file) throw validationFailed('Send the file in the field "file"');
      return await commit({ fields, file, key, quotaBytes });
    } catch (error) {
      await this.discard(key);
      throw error;
    }
  }

  /** The current content, as an attachment named after the file. */
  async content(
    actor: UserActor,
    id: string,
    request: { range?: string | undefined; ifNoneMatch?: string | undefined; ifRange?: string | undefined },
  ) {
    const file = await this.deps.cloud.file(actor.id, id);
    if (!file) throw fileNotFound();
    return serveContent(
      this.deps.storage,
      {
        key: file.storage_key,
        size: Number(file.size),
        md5: file.md5,
        contentType: file.content_type,
        name: file.name,
      },
      request,
    );
  }

  /** Rename and move, with the folder's name and size rules. */
  update(actor: UserActor, id: string, body: UpdateCloudFileRequest) {
    const { scope, cloud, events, people, limits } = this.deps;
    return scope.transaction(async () => {
      await people.lockAccount(actor.id);
      const file = await cloud.file(actor.id, id);
      if (!file) throw fileNotFound();
      const name = body.name === undefined ? file.name : checkedName(body.name);
      const folderId = body.folder_id === undefined ? file.folder_id : body.folder_id;
      const moved = folderId !== file.folder_id;
      if (moved) await assertRoomFor(cloud, actor.id, folderId, name, limits.folderMaxItems);
      else if (name !== file.name) await assertRoomFor(cloud, actor.id, folderId, name, Infinity, file.id);
      const row = await cloud.updateFile(file.id, { name, name_key: nameKey(name), folder_id: folderId });
      await events.record(actor, 'cloud.file_updated', {
        subject: { resource: 'cloud_file', id: row.id },
        data: { name, moved },
      });
      return { file: toCloudFile(row) };
    });
  }

  /** Removes what a failed upload wrote; if storage fails, its intent stays and the cleanup retries. */
  private async discard(key: string): Promise<void> {
    try {
      await this.deps.storage.deletePrefix(folderOfKey(key));
      await this.deps.cloud.removeIntent(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'could not remove a failed cloud upload; the cleanup will retry');
    }
  }

  /** Removes the objects of uploads whose process died under them. Safe to run on every instance. */
  async cleanup(olderThanMs = INTENT_TTL_MS): Promise<{ objects: number }> {
    const { cloud, storage } = this.deps;
    let objects = 0;
    for (const key of await cloud.staleIntents(new Date(this.deps.clock.now().getTime() - olderThanMs))) {
      if (!(await cloud.keyInUse(key))) {
        await storage.deletePrefix(folderOfKey(key));
        objects++;
      }
      await cloud.removeIntent(key);
    }
    return { objects };
  }
}
