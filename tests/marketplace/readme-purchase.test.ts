/**
 * README's "Buy something with curl", run as written: the shell block is read from README.md and run
 * with bash against a test server (its API address and mail outbox in place of npm start's), in a
 * folder of its own. A newcomer who follows the README gets what this test checks.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();
const run = promisify(execFile);

async function readmeBlock(): Promise<string> {
  const readme = await readFile(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Buy something with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no shell block under "Buy something with curl"');
  return block[1]!;
}

describe('README: buy something with curl', () => {
  it('the sandbox purchase of the README runs as written: the file downloads and the invoice is a PDF', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'riff-readme-'));
    try {
      const script = await readmeBlock();
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: folder,
        env: { ...process.env, API: `${suite.server.directUrl}/api/v1`, MAIL: suite.server.outboxDir },
        timeout: 60_000,
      });
      expect(stdout.trim()).toBe('downloaded: the same file');
      expect((await readFile(path.join(folder, 'invoice.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
