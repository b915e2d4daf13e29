import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, type ObjectStorage } from './object-storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
}

/** 8 MiB parts: a multipart upload streams large objects while holding at most a few parts in memory. */
const PART_SIZE = 8 * 1024 * 1024;

export function createS3Storage(options: S3StorageOptions): ObjectStorage & { client: S3Client } {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  const Bucket = options.bucket;
  const isMissing = (error: unknown) => {
    const name = (error as { name?: string }).name;
    return (
      name === 'NotFound' ||
      name === 'NoSuchKey' ||
      (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
    );
  };

  return {
    kind: 's3',
    client,
    async put(key, body, putOptions) {
      assertSafeKey(key);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: putOptions?.contentType },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async get(key, range) {
      assertSafeKey(key);
      const reply = await client.send(
        new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(reply.Body instanceof Readable)) throw new Error('S3 body is not a stream');
      return reply.Body;
    },
    async size(key) {
      assertSafeKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async move(from, to) {
      assertSafeKey(from);
      assertSafeKey(to);
      // keys are [A-Za-z0-9._-] segments: nothing in CopySource needs escaping
      await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${from}` }));
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((item) => ({ Key: item.Key! }));
        if (keys.length > 0)
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async presignedGetUrl(key, presign) {
      assertSafeKey(key);
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: presign.contentType,
          ResponseContentDisposition: presign.contentDisposition,
        }),
        { expiresIn: presign.expiresInSeconds },
      );
    },
    localPath: () => undefined,
  };
}
