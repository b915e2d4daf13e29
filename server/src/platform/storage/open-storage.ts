import path from 'node:path';
import type { Config } from '../config/config.js';
import { createLocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';

/**
 * The storage driver STORAGE_DRIVER names: files under DATA_DIR (default) or an S3 bucket. The S3
 * client loads only when chosen (it alone took a sixth of a second at every start).
 */
export async function openStorage(config: Config): Promise<ObjectStorage> {
  if (config.storage.driver !== 's3') return createLocalStorage(path.join(config.dataDir, 'files'));
  const { createS3Storage } = await import('./s3-storage.js');
  return createS3Storage({ ...config.storage.s3, bucket: config.storage.s3.bucket ?? '' });
}
