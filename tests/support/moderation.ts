import { expect } from 'vitest';
import { createUser, type TestUser } from './factories.js';
import { api } from './http.js';
import { runDueJobs } from './jobs.js';
import { makeModerator } from './row-states.js';
import type { TestServer } from './test-server.js';

/** A signed-in user whose role is moderator. */
export async function createModerator(server: TestServer): Promise<TestUser> {
  const moderator = await createUser(server);
  await makeModerator(server, moderator.id);
  return moderator;
}

/** The inbox's moderation notifications once there are at least `count` of them (a job makes them), within 10 s. */
export async function moderationNotices(server: TestServer, token: string, count: number) {
  const http = api(server.baseUrl);
  const deadline = Date.now() + 10_000;
  for (;;) {
    await runDueJobs(server);
    const reply = await http.get('/notifications', { token });
    expect(reply.status).toBe(200);
    const notes = (reply.body.data.notifications as { type: string; message: string; actor: unknown }[]).filter(
      (note) => note.type === 'moderation',
    );
    if (notes.length >= count || Date.now() > deadline) return notes;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
