/**
 * Cloud files on S3 storage: uploads streamed into the bucket under generated keys (never the
 * client's name), downloads as a redirect to a presigned URL, and a refused upload leaving no object.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '../support/audio.js';
import { createUser } from '../support/factories.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectStatus } from '../support/typed-api.js';

let s3: TestS3;
let server: TestServer;
let client: S3Client;

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ ...s3.env, QUOTA_BYTES: '100000' });
  client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

async function keys(prefix: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((item) => item.Key!).sort();
}

const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

describe('cloud on S3', () => {
  it('stores a file under a generated key and redirects its download to a presigned URL', async () => {
    const owner = await createUser(server);
    const bytes = Buffer.from(Array.from({ length: 7000 }, (_, index) => index % 253));
    const before = await keys('cloud/');
    const file = expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf(bytes, '../../etc/passwd my mix.bin') } }),
      201,
    ).body.data.file;
    expect(file.md5).toBe(md5(bytes));
    const added = (await keys('cloud/')).filter((key) => !before.includes(key));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^cloud\/[0-9a-f-]{36}\/content$/);

    const reply = await fetch(`${server.baseUrl}/api/v1/cloud/files/${file.id}/content`, {
      headers: { authorization: `Bearer ${owner.token}` },
      redirect: 'manual',
    });
    expect(reply.status).toBe(302);
    const location = reply.headers.get('location')!;
    expect(location.startsWith(s3.endpoint)).toBe(true);
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
    const ranged = await fetch(location, { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
  });

  it('an upload over the quota leaves no object in the bucket', async () => {
    const owner = await createUser(server);
    const before = await keys('cloud/');
    const over = expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf(Buffer.alloc(150_000, 1), 'huge.bin') } }),
      403,
    );
    expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
    expect(await keys('cloud/')).toEqual(before);
    expect(expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data.files).toEqual([]);
  });
});

describe('cloud versions and trash on S3', () => {
  it('a new version is a new object; the purge removes every object of the file', async () => {
    const owner = await createUser(server);
    const first = Buffer.from('first version');
    const file = expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf(first, 'v.txt') } }), 201).body
      .data.file;
    const before = await keys('cloud/');
    const second = Buffer.from('second version!');
    const replaced = expectStatus(
      await owner.api.cloud.replaceContent({ params: { id: file.id }, body: { file: fileOf(second, 'v.txt') } }),
      200,
    ).body.data.file;
    expect(replaced).toMatchObject({ version: 2, md5: md5(second) });
    const added = (await keys('cloud/')).filter((key) => !before.includes(key));
    expect(added).toHaveLength(1);
    const reply = await fetch(`${server.baseUrl}/api/v1/cloud/files/${file.id}/content`, {
      headers: { authorization: `Bearer ${owner.token}` },
      redirect: 'manual',
    });
    expect(reply.status).toBe(302);
    expect(Buffer.from(await (await fetch(reply.headers.get('location')!)).arrayBuffer()).equals(second)).toBe(true);

    expectStatus(await owner.api.cloud.removeFile({ params: { id: file.id } }), 200);
    expectStatus(await owner.api.cloud.deleteTrashItem({ params: { id: file.id } }), 200);
    const left = await keys('cloud/');
    expect(left.filter((key) => added.includes(key) || !before.includes(key))).toEqual([]);
    expect(left).toHaveLength(before.length - 1);
  });
});
