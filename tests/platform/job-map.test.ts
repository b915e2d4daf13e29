import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../server/src/platform/jobs/job-queue.js';
import type { ModuleJob } from '../../server/src/platform/module.js';
import { runJob } from '../support/jobs.js';
import type { TestServer } from '../support/test-server.js';

// Checked by `npm run typecheck`: each @ts-expect-error fails the typecheck if the line under it
// compiles, so a job's name and payload are checked where it is queued, handled and run.
function queued(jobs: JobQueue) {
  void jobs.enqueue('media.hls', { trackId: 't', runId: 'r' });
  // @ts-expect-error: no job has this name
  void jobs.enqueue('media.hsl', { trackId: 't', runId: 'r' });
  // @ts-expect-error: a media job's payload names the run
  void jobs.enqueue('media.hls', { trackId: 't' });
  // @ts-expect-error: a delivery's id is a string
  void jobs.enqueue('webhooks.deliver', { deliveryId: 1 });
  jobs.every('uploads.cleanup', 60_000);
  // @ts-expect-error: only a job that takes nothing runs periodically
  jobs.every('webhooks.deliver', 60_000);
}

function handled(): ModuleJob[] {
  return [
    { name: 'webhooks.deliver', handle: async (data) => data.deliveryId.length },
    // @ts-expect-error: the handler reads a field the payload does not have
    { name: 'media.waveform', handle: async (data) => data.deliveryId },
    // @ts-expect-error: no job has this name
    { name: 'media.wave', handle: async () => undefined },
    // @ts-expect-error: a job with a payload cannot be periodic
    { name: 'media.hls', everyMs: 1000, handle: async () => undefined },
  ];
}

async function run(server: TestServer) {
  await runJob(server, 'queue.sessions.prune');
  await runJob(server, 'media.hls', { trackId: 't', runId: 'r' });
  // @ts-expect-error: a job with a payload is run with it
  await runJob(server, 'media.hls');
  // @ts-expect-error: no job has this name
  await runJob(server, 'queue.session.prune');
}

describe('the job map', () => {
  it('types every job by its name (checked by the typecheck; nothing runs here)', () => {
    expect([queued, handled, run].every((check) => typeof check === 'function')).toBe(true);
  });
});
