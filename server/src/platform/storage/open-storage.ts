import path from 'node:path';
import type { Config } from '../config/config.js';
import { createLocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { createS3Storage } from './s3-storage.js';

/** The storage driver STORAGE_DRIVER names: files under DATA_DIR (default) or an S3 bucket. */
export function openStorage(config: Config): ObjectStorage {
  return config.storage.driver === 's3'
    ? createS3Storage({ ...config.storage.s3, bucket: config.storage.s3.bucket ?? '' })
    : createLocalStorage(path.join(config.dataDir, 'files'));
}
