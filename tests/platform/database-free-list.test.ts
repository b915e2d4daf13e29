import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// CI runs the files of tests/database-free.txt on the embedded defaults only. That is sound only
// while none of them reaches a database or Redis: this checks what each one imports and names.
const root = path.resolve(import.meta.dirname, '../..');

/** What opens a database or names one: the test servers, the services, the platform, the app, factories. */
const REACHES_A_DATABASE =
  /support\/(test-server|suite|services|accounts|test-database|fault-services|service-factories|factories|jobs|http|seed-rows|bare-rows|row-states|backdate)\.js|server\/src\/(app|platform\/platform|platform\/db\/[a-z-]+)\.js|DATABASE_URL|REDIS_URL|ioredis|@electric-sql\/pglite|from 'pg'/;

async function listedFiles(): Promise<string[]> {
  const text = await readFile(path.join(root, 'tests/database-free.txt'), 'utf8');
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

describe('tests/database-free.txt', () => {
  it('names test files that exist and reach no database, by what they import and name', async () => {
    const files = await listedFiles();
    expect(files.length).toBeGreaterThan(0);
    const offenders: string[] = [];
    for (const file of files) {
      expect(existsSync(path.join(root, file)), `${file} does not exist`).toBe(true);
      expect(file).toMatch(/^tests\/.+\.test\.ts$/);
      const source = await readFile(path.join(root, file), 'utf8');
      const match = REACHES_A_DATABASE.exec(source);
      if (match) offenders.push(`${file}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the check would catch a file that starts a test server', () => {
    expect(REACHES_A_DATABASE.test(`import { startTestServer } from '../support/test-server.js';`)).toBe(true);
    expect(REACHES_A_DATABASE.test(`import { useServices } from '../support/services.js';`)).toBe(true);
    expect(REACHES_A_DATABASE.test(`import { loadConfig } from '../../server/src/platform/config/config.js';`)).toBe(
      false,
    );
  });
});
