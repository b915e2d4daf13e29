/**
 * Cloud files on local disk: uploads in one request streamed to storage under generated keys, the
 * content type sniffed from the bytes, md5, downloads with ranges and an RFC 6266 name, rename and
 * move, the quota they share with tracks, and another user's file as nothing.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { makeAudio, md5 } from '../support/audio.js';
import { createUser } from '../support/factories.js';
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

async function download(user: User, id: string, headers: Record<string, string> = {}) {
  const reply = await fetch(`${suite.server.baseUrl}/api/v1/cloud/files/${id}/content`, {
    headers: { authorization: `Bearer ${user.token}`, ...headers },
    redirect: 'manual',
  });
  return { status: reply.status, headers: reply.headers, bytes: Buffer.from(await reply.arrayBuffer()) };
}

/** The stored objects of cloud files on disk. */
async function storedObjects(): Promise<string[]> {
  const folder = suite.server.riff.storage.localPath('cloud')!;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('cloud files', () => {
  it('stores any content with its md5 and a content type sniffed from the bytes, not from the name', async () => {
    const owner = await createUser(suite.server);
    const wav = await makeAudio('wav');
    const sound = await upload(owner, wav, 'take 1.txt');
    expect(sound).toMatchObject({ name: 'take 1.txt', folder_id: null, size: wav.length, md5: md5(wav), version: 1 });
    expect(sound.content_type).toBe('audio/wav');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 1)]);
    expect((await upload(owner, png, 'cover.mp3')).content_type).toBe('image/png');
    expect((await upload(owner, '%PDF-1.7 lyrics sheet', 'lyrics')).content_type).toBe('application/pdf');
    expect((await upload(owner, 'just some text', 'notes.wav')).content_type).toBe('application/octet-stream');
    expect((await upload(owner, '', 'empty.bin')).size).toBe(0);

    const got = expectStatus(await owner.api.cloud.file({ params: { id: sound.id } }), 200).body.data.file;
    expect(got).toEqual(sound);
  });

  it('serves the content with Range, ETag and an RFC 6266 attachment name', async () => {
    const owner = await createUser(suite.server);
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, index) => index % 251));
    const file = await upload(owner, bytes, 'Démo “final”.bin');

    const whole = await download(owner, file.id);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(bytes)).toBe(true);
    expect(whole.headers.get('content-length')).toBe('5000');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('etag')).toBe(`"${md5(bytes)}"`);
    const disposition = whole.headers.get('content-disposition')!;
    expect(disposition).toContain('attachment;');
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Démo “final”.bin')}`);

    const part = await download(owner, file.id, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');
    expect(part.bytes.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await download(owner, file.id, { range: 'bytes=-10' });
    expect(tail.bytes.equals(bytes.subarray(4990))).toBe(true);
    expect((await download(owner, file.id, { range: 'bytes=9000-' })).status).toBe(416);
    expect((await download(owner, file.id, { 'if-none-match': `"${md5(bytes)}"` })).status).toBe(304);
  });

  it('renames and moves a file under the folder’s name rules', async () => {
    const owner = await createUser(suite.server);
    const folder = expectStatus(await owner.api.cloud.createFolder({ body: { name: 'Beats' } }), 201).body.data.folder;
    const file = await upload(owner, 'kick', 'kick.wav');
    await upload(owner, 'snare', 'snare.wav', folder.id);
    const moved = expectStatus(
      await owner.api.cloud.updateFile({ params: { id: file.id }, body: { folder_id: folder.id, name: 'Kick.wav' } }),
      200,
    ).body.data.file;
    expect(moved).toMatchObject({ folder_id: folder.id, name: 'Kick.wav' });
    expect(
      expectStatus(await owner.api.cloud.updateFile({ params: { id: file.id }, body: { name: 'SNARE.wav' } }), 409).body
        .error.code,
    ).toBe('NAME_TAKEN');
    expect(
      expectStatus(
        await owner.api.cloud.uploadFile({ body: { file: fileOf('again', 'KICK.WAV'), folder_id: folder.id } }),
        409,
      ).body.error.code,
    ).toBe('NAME_TAKEN');
    expectStatus(await owner.api.cloud.updateFile({ params: { id: file.id }, body: { name: '..' } }), 400);
    const top = expectStatus(
      await owner.api.cloud.updateFile({ params: { id: file.id }, body: { folder_id: null } }),
      200,
    ).body.data.file;
    expect(top.folder_id).toBeNull();
  });

  it('counts cloud files in the quota shared with tracks', async () => {
    const owner = await createUser(suite.server);
    const before = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
    expect(before.cloud_bytes).toBe(0);
    await upload(owner, Buffer.alloc(3000, 1), 'a.bin');
    await upload(owner, Buffer.alloc(2000, 2), 'b.bin');
    const after = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
    expect(after.cloud_bytes).toBe(5000);
    expect(after.used_bytes).toBe(before.used_bytes + 5000);
    expect(after.remaining_bytes).toBe(before.remaining_bytes - 5000);
  });

  it('another user’s file is 404: read, content, rename, move', async () => {
    const owner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const file = await upload(owner, 'secret', 'secret.txt');
    const theirs = expectStatus(await stranger.api.cloud.createFolder({ body: { name: 'Theirs' } }), 201).body.data
      .folder;
    expectStatus(await stranger.api.cloud.file({ params: { id: file.id } }), 404);
    expect((await download(stranger, file.id)).status).toBe(404);
    expectStatus(await stranger.api.cloud.updateFile({ params: { id: file.id }, body: { name: 'mine.txt' } }), 404);
    expectStatus(await owner.api.cloud.updateFile({ params: { id: file.id }, body: { folder_id: theirs.id } }), 404);
  });

  it('a refused upload leaves no stored object and no file', async () => {
    const owner = await createUser(suite.server);
    const before = await storedObjects();
    const stranger = await createUser(suite.server);
    const theirs = expectStatus(await stranger.api.cloud.createFolder({ body: { name: 'Theirs' } }), 201).body.data
      .folder;
    // refused after the bytes were stored: the folder is not the uploader's, or the name is not allowed
    expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf('bytes', 'x.txt'), folder_id: theirs.id } }),
      404,
    );
    expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf('bytes', '..') } }), 400);
    expect(await storedObjects()).toEqual(before);
    expect(expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data.files).toEqual([]);
  });
});
