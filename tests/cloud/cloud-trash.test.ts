/**
 * Cloud versions and trash: ten versions kept and counted in the quota, a version restored as the
 * next one, files and folders to the trash (404 elsewhere until restored), restore into the old
 * folder or the top with a suffix when the name is taken, deletion for good, and the 30-day purge
 * removing the stored objects.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { backdateCloudTrash } from '../support/backdate.js';
import { createUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

type User = Awaited<ReturnType<typeof createUser>>;
const fileOf = (bytes: Buffer | string, name: string) =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name);

async function upload(user: User, bytes: Buffer | string, name: string, folderId?: string) {
  return expectStatus(
    await user.api.cloud.uploadFile({ body: { file: fileOf(bytes, name), folder_id: folderId } }),
    201,
  ).body.data.file;
}
async function folder(user: User, name: string, parentId?: string) {
  return expectStatus(await user.api.cloud.createFolder({ body: { name, parent_id: parentId } }), 201).body.data.folder;
}
const quotaOf = async (user: User) =>
  expectStatus(await user.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;

async function storedObjects(): Promise<number> {
  const root = suite.server.riff.storage.localPath('cloud')!;
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

async function contentOf(user: User, id: string) {
  const reply = await fetch(`${suite.server.baseUrl}/api/v1/cloud/files/${id}/content`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return { status: reply.status, text: await reply.text() };
}

describe('cloud versions', () => {
  it('keeps ten versions counted in the quota; the oldest goes with its object; a restore is the next version', async () => {
    const owner = await createUser(suite.server);
    const file = await upload(owner, 'v1'.padEnd(100, '.'), 'song.txt');
    const objects = await storedObjects();
    for (let version = 2; version <= 12; version++) {
      const next = expectStatus(
        await owner.api.cloud.replaceContent({
          params: { id: file.id },
          body: { file: fileOf(`v${version}`.padEnd(100, '.'), 'ignored.bin') },
        }),
        200,
      ).body.data.file;
      expect(next).toMatchObject({ id: file.id, name: 'song.txt', version });
    }
    const versions = expectStatus(await owner.api.cloud.versions({ params: { id: file.id } }), 200).body.data.versions;
    expect(versions.map((entry) => entry.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(versions.map((entry) => entry.is_current)).toEqual([true, ...Array(9).fill(false)]);
    expect(await storedObjects()).toBe(objects + 9);
    expect((await quotaOf(owner)).cloud_bytes).toBe(1000);

    const third = versions.find((entry) => entry.version === 3)!;
    const restored = expectStatus(
      await owner.api.cloud.restoreVersion({ params: { id: file.id, versionId: third.id } }),
      200,
    ).body.data.file;
    expect(restored).toMatchObject({ version: 13, md5: third.md5 });
    expect((await contentOf(owner, file.id)).text).toBe('v3'.padEnd(100, '.'));
    const after = expectStatus(await owner.api.cloud.versions({ params: { id: file.id } }), 200).body.data.versions;
    expect(after.map((entry) => entry.version)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);

    // another user's file or version is 404
    const stranger = await createUser(suite.server);
    expectStatus(await stranger.api.cloud.versions({ params: { id: file.id } }), 404);
    expectStatus(await stranger.api.cloud.restoreVersion({ params: { id: file.id, versionId: after[1]!.id } }), 404);
    expectStatus(
      await stranger.api.cloud.replaceContent({ params: { id: file.id }, body: { file: fileOf('x', 'x') } }),
      404,
    );
    const mine = await upload(stranger, 'mine', 'mine.txt');
    expectStatus(await stranger.api.cloud.restoreVersion({ params: { id: mine.id, versionId: after[1]!.id } }), 404);
  });
});

describe('cloud trash', () => {
  it('a deleted file is 404 elsewhere, listed in the trash, counted in the quota, and restored where it was', async () => {
    const owner = await createUser(suite.server);
    const box = await folder(owner, 'Box');
    const file = await upload(owner, 'hello world', 'take.wav', box.id);
    expectStatus(await owner.api.cloud.removeFile({ params: { id: file.id } }), 200);
    expectStatus(await owner.api.cloud.file({ params: { id: file.id } }), 404);
    expect((await contentOf(owner, file.id)).status).toBe(404);
    expectStatus(await owner.api.cloud.updateFile({ params: { id: file.id }, body: { name: 'x' } }), 404);
    expectStatus(await owner.api.cloud.removeFile({ params: { id: file.id } }), 404);
    expect(
      expectStatus(await owner.api.cloud.folder({ params: { id: box.id }, query: {} }), 200).body.data.files,
    ).toEqual([]);
    const trash = expectStatus(await owner.api.cloud.trash({ query: {} }), 200).body.data;
    expect(trash.items).toHaveLength(1);
    const item = trash.items[0]!;
    expect(item).toMatchObject({ id: file.id, type: 'file', name: 'take.wav', size: 11 });
    expect(new Date(item.purge_at).getTime() - new Date(item.deleted_at).getTime()).toBe(30 * 86_400_000);
    expect((await quotaOf(owner)).cloud_bytes).toBe(11);

    // the name was taken meanwhile: restored with a suffix before the extension
    await upload(owner, 'new', 'take.wav', box.id);
    const restored = expectStatus(await owner.api.cloud.restoreTrashItem({ params: { id: file.id } }), 200).body.data;
    expect(restored.file).toMatchObject({ id: file.id, name: 'take (restored).wav', folder_id: box.id });
    expect((await contentOf(owner, file.id)).text).toBe('hello world');
    expectStatus(await owner.api.cloud.restoreTrashItem({ params: { id: file.id } }), 404);
  });

  it('a deleted folder is one item with everything inside; restored to the top when its folder is gone', async () => {
    const owner = await createUser(suite.server);
    const outer = await folder(owner, 'Outer');
    const inner = await folder(owner, 'Inner', outer.id);
    const deep = await folder(owner, 'Deep', inner.id);
    const file = await upload(owner, 'stem', 'stem.wav', deep.id);
    expectStatus(await owner.api.cloud.removeFolder({ params: { id: inner.id } }), 200);
    expectStatus(await owner.api.cloud.folder({ params: { id: deep.id }, query: {} }), 404);
    expectStatus(await owner.api.cloud.file({ params: { id: file.id } }), 404);
    expectStatus(await owner.api.cloud.restoreTrashItem({ params: { id: deep.id } }), 404);
    const items = expectStatus(await owner.api.cloud.trash({ query: {} }), 200).body.data.items;
    expect(items.map((entry) => [entry.id, entry.type, entry.size])).toEqual([[inner.id, 'folder', 4]]);

    expectStatus(await owner.api.cloud.removeFolder({ params: { id: outer.id } }), 200);
    const restored = expectStatus(await owner.api.cloud.restoreTrashItem({ params: { id: inner.id } }), 200).body.data;
    expect(restored.folder).toMatchObject({ id: inner.id, parent_id: null, name: 'Inner' });
    const listing = expectStatus(await owner.api.cloud.folder({ params: { id: deep.id }, query: {} }), 200).body.data;
    expect(listing.path.map((entry) => entry.id)).toEqual([inner.id]);
    expect(listing.files.map((entry) => entry.id)).toEqual([file.id]);
  });

  it('deletes for good one item or the whole trash, and the purge job removes items after 30 days with their objects', async () => {
    const owner = await createUser(suite.server);
    const objects = await storedObjects();
    const a = await upload(owner, 'aaaa', 'a.bin');
    const b = await upload(owner, 'bbbbbb', 'b.bin');
    const box = await folder(owner, 'Box');
    await upload(owner, 'cc', 'c.bin', box.id);
    expect(await storedObjects()).toBe(objects + 3);
    for (const id of [a.id, b.id]) expectStatus(await owner.api.cloud.removeFile({ params: { id } }), 200);
    expectStatus(await owner.api.cloud.removeFolder({ params: { id: box.id } }), 200);
    expect((await quotaOf(owner)).cloud_bytes).toBe(12);

    expectStatus(await owner.api.cloud.deleteTrashItem({ params: { id: a.id } }), 200);
    expect(await storedObjects()).toBe(objects + 2);
    expect((await quotaOf(owner)).cloud_bytes).toBe(8);

    // 29 days: kept; 31 days: purged with the object
    await backdateCloudTrash(suite.server, b.id, 29);
    await runJob(suite.server, 'cloud.purge-trash');
    expect(expectStatus(await owner.api.cloud.trash({ query: {} }), 200).body.data.items).toHaveLength(2);
    await backdateCloudTrash(suite.server, b.id, 31);
    await runJob(suite.server, 'cloud.purge-trash');
    const left = expectStatus(await owner.api.cloud.trash({ query: {} }), 200).body.data.items;
    expect(left.map((entry) => entry.id)).toEqual([box.id]);
    expect(await storedObjects()).toBe(objects + 1);
    expect((await quotaOf(owner)).cloud_bytes).toBe(2);

    const emptied = expectStatus(await owner.api.cloud.emptyTrash({}), 200).body.data;
    expect(emptied.deleted).toBe(1);
    expect(await storedObjects()).toBe(objects);
    expect((await quotaOf(owner)).cloud_bytes).toBe(0);
    expectStatus(await owner.api.cloud.restoreTrashItem({ params: { id: box.id } }), 404);
  });

  it('another user’s trash item is 404', async () => {
    const owner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const file = await upload(owner, 'x', 'x.bin');
    const box = await folder(owner, 'Box');
    expectStatus(await stranger.api.cloud.removeFile({ params: { id: file.id } }), 404);
    expectStatus(await stranger.api.cloud.removeFolder({ params: { id: box.id } }), 404);
    expectStatus(await owner.api.cloud.removeFile({ params: { id: file.id } }), 200);
    expectStatus(await stranger.api.cloud.restoreTrashItem({ params: { id: file.id } }), 404);
    expectStatus(await stranger.api.cloud.deleteTrashItem({ params: { id: file.id } }), 404);
    expect(expectStatus(await stranger.api.cloud.emptyTrash({}), 200).body.data.deleted).toBe(0);
    expect(expectStatus(await owner.api.cloud.trash({ query: {} }), 200).body.data.items).toHaveLength(1);
  });
});

describe('the account’s cloud in its export and its erasure', () => {
  it('exports folders and files by name, the trash included; erasure removes them and their stored objects', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const kept = await upload(other, 'not hers', 'theirs.txt');
    const before = await storedObjects();
    const stems = await folder(owner, 'Stems');
    const bass = await upload(owner, 'bass take', 'bass.wav', stems.id);
    expectStatus(
      await owner.api.cloud.replaceContent({ params: { id: bass.id }, body: { file: fileOf('bass take 2', 'x') } }),
      200,
    );
    const old = await folder(owner, 'Old');
    const draft = await upload(owner, 'draft', 'draft.txt', old.id);
    expectStatus(await owner.api.cloud.removeFolder({ params: { id: old.id } }), 200);
    expect(await storedObjects()).toBe(before + 3);

    const exported = await suite.http.get('/users/me/export', { token: owner.token });
    expect(exported.status).toBe(200);
    const { folders, files } = exported.body.cloud as {
      folders: { id: string; name: string; parent_id: string | null; deleted_at: string | null }[];
      files: {
        id: string;
        name: string;
        folder_id: string | null;
        size: number;
        version: number;
        deleted_at: string | null;
      }[];
    };
    expect(folders.map((f) => [f.name, f.parent_id, f.deleted_at !== null])).toEqual([
      ['Old', null, true],
      ['Stems', null, false],
    ]);
    expect(files.map((f) => [f.name, f.folder_id, f.size, f.version, f.deleted_at !== null])).toEqual([
      ['bass.wav', stems.id, 11, 2, false],
      ['draft.txt', old.id, 5, 1, true],
    ]);
    expect(JSON.stringify(exported.body.cloud)).not.toContain(kept.id);

    expectStatus(
      await owner.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: owner.password } }),
      200,
    );
    const entry = await suite.server.riff.database.db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'user.deleted')
      .executeTakeFirstOrThrow();
    expect(entry.metadata).toMatchObject({ removed_cloud_files: 2, removed_cloud_folders: 2 });
    // her objects are gone once the erasure committed; the other user's stays and still downloads
    expect(await storedObjects()).toBe(before);
    expect(await contentOf(other, kept.id)).toEqual({ status: 200, text: 'not hers' });
    const left = await suite.server.riff.database.db
      .selectFrom('cloud_files')
      .select('id')
      .where('id', 'in', [bass.id, draft.id])
      .execute();
    expect(left).toEqual([]);
  });
});
