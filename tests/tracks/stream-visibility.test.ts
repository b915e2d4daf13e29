import { afterAll, describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const suite = useTestServer();
const RANGE = { range: 'bytes=0-1023' };

async function streamStatus(server: TestServer, trackId: string): Promise<number> {
  const response = await fetch(`${server.directUrl}/api/v1/tracks/${trackId}/stream`, { headers: RANGE });
  await response.arrayBuffer();
  return response.status;
}

describe('streaming follows a track’s visibility at once', () => {
  it('made private, a track stops streaming to others with the next request; deleted, for everyone', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { isPublic: true });
    // a player asks range after range: these are served from the tracks read in the last second
    expect(await streamStatus(suite.server, track.id)).toBe(206);
    expect(await streamStatus(suite.server, track.id)).toBe(206);
    expect(
      (await suite.http.put(`/tracks/${track.id}`, { token: owner.token, body: { is_public: false } })).status,
    ).toBe(200);
    expect(await streamStatus(suite.server, track.id)).toBe(404);

    const other = await createTrack(suite.server, owner, { isPublic: true });
    expect(await streamStatus(suite.server, other.id)).toBe(206);
    expect((await suite.http.delete(`/tracks/${other.id}`, { token: owner.token })).status).toBe(200);
    expect(await streamStatus(suite.server, other.id)).toBe(404);
  });

  describe.skipIf(!process.env.DATABASE_URL)('across two instances on one database', () => {
    let second: TestServer | undefined;
    afterAll(async () => second?.close());

    it('a track made private on one instance stops streaming on the other within a second', async () => {
      second = await startTestServer({}, { storage: suite.server.riff.storage });
      const owner = await createUser(suite.server);
      const track = await createTrack(suite.server, owner, { isPublic: true });
      expect(await streamStatus(second, track.id)).toBe(206);
      expect(
        (await suite.http.put(`/tracks/${track.id}`, { token: owner.token, body: { is_public: false } })).status,
      ).toBe(200);
      const changed = Date.now();
      let status = await streamStatus(second, track.id);
      while (status !== 404 && Date.now() - changed < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        status = await streamStatus(second, track.id);
      }
      expect(status).toBe(404);
      // the other instance learns by expiry: one second, plus the time of a request
      expect(Date.now() - changed).toBeLessThan(1_250);
    });
  });
});
