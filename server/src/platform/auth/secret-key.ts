import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** SECRET_KEY when set; otherwise 32 random bytes generated once into DATA_DIR. */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'base64');
  const file = path.join(dataDir, 'keys', 'secret.key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch {
      // written by another process first
    }
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  }
}
