/**
 * Cloud limits on a server with small ones: items per folder, the largest file, the quota shared
 * with tracks, and uploads refused or cut midway leaving nothing stored.
 */
import { request } from 'node:http';
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer({ CLOUD_FOLDER_MAX_ITEMS: '3', CLOUD_MAX_FILE_BYTES: '60000', QUOTA_BYTES: '100000' });

const fileOf = (bytes: Buffer | string, name: string) =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name);

async function storedObjects(): Promise<string[]> {
  const folder = suite.server.riff.storage.localPath('cloud')!;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** Polls until `check` holds (the server removes what a cut upload wrote once it sees the cut). */
async function eventually(check: () => Promise<boolean>) {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('cloud limits', () => {
  it('a folder (and the top) holds at most the configured number of items', async () => {
    const owner = await createUser(suite.server);
    const box = expectStatus(await owner.api.cloud.createFolder({ body: { name: 'Box' } }), 201).body.data.folder;
    expectStatus(await owner.api.cloud.createFolder({ body: { name: 'one', parent_id: box.id } }), 201);
    expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf('x', 'two'), folder_id: box.id } }), 201);
    const loose = expectStatus(await owner.api.cloud.createFolder({ body: { name: 'three' } }), 201).body.data.folder;
    expectStatus(await owner.api.cloud.createFolder({ body: { name: 'three', parent_id: box.id } }), 201);
    const full = expectStatus(await owner.api.cloud.createFolder({ body: { name: 'four', parent_id: box.id } }), 400);
    expect(full.body.error.code).toBe('LIMIT_REACHED');
    expect(
      expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf('x', 'four'), folder_id: box.id } }), 400)
        .body.error.code,
    ).toBe('LIMIT_REACHED');
    expect(
      expectStatus(await owner.api.cloud.updateFolder({ params: { id: loose.id }, body: { parent_id: box.id } }), 400)
        .body.error.code,
    ).toBe('LIMIT_REACHED');
  });

  it('a file over the size limit is 413 and one over the quota 403, nothing stored either way', async () => {
    const owner = await createUser(suite.server);
    const before = await storedObjects();
    const big = expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf(Buffer.alloc(60001), 'big') } }),
      413,
    );
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf(Buffer.alloc(55000, 1), 'a') } }), 201);
    const over = expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf(Buffer.alloc(50000, 2), 'b') } }),
      403,
    );
    expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
    expect(await storedObjects()).toHaveLength(before.length + 1);
    const quota = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
    expect(quota).toMatchObject({ used_bytes: 55000, cloud_bytes: 55000, remaining_bytes: 45000 });
  });

  it('an upload cut midway leaves no stored object and no file', async () => {
    const owner = await createUser(suite.server);
    const before = await storedObjects();
    const boundary = 'cut-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    const url = new URL(`${suite.server.baseUrl}/api/v1/cloud/files`);
    await new Promise<void>((resolve) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + 50_000 + 100),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(head);
      req.write(Buffer.alloc(20_000, 3), () => {
        // the server holds part of the file: cut the connection
        setTimeout(() => req.destroy(), 200);
      });
    });
    await eventually(async () => (await storedObjects()).length === before.length);
    expect(expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data.files).toEqual([]);
  });
});
