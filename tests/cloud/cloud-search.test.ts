/** Cloud search: the caller's own files and folders by name, not in the trash, with the engine of /search. */
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

const fileOf = (text: string, name: string) => new File([text], name);

describe('cloud search', () => {
  it('finds the caller’s own items by name (accents, case and typos forgiven), never the trash or another user’s', async () => {
    const owner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const stems = expectStatus(await owner.api.cloud.createFolder({ body: { name: 'Café Sessions' } }), 201).body.data
      .folder;
    const file = expectStatus(
      await owner.api.cloud.uploadFile({ body: { file: fileOf('x', 'cafe sessions bass.wav'), folder_id: stems.id } }),
      201,
    ).body.data.file;
    const gone = expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf('y', 'cafe old.wav') } }), 201)
      .body.data.file;
    expectStatus(await owner.api.cloud.removeFile({ params: { id: gone.id } }), 200);
    expectStatus(await stranger.api.cloud.createFolder({ body: { name: 'Cafe Sessions' } }), 201);

    const found = expectStatus(await owner.api.cloud.search({ query: { q: 'CAFE sessions' } }), 200).body.data;
    expect(found.pagination.total).toBe(2);
    expect(found.results.map((result) => result.folder?.id ?? result.file?.id)).toEqual([stems.id, file.id]);
    expect(found.results.map((result) => result.type)).toEqual(['folder', 'file']);

    const files = expectStatus(await owner.api.cloud.search({ query: { q: 'cafe', type: 'file' } }), 200).body.data;
    expect(files.results.map((result) => result.file?.id)).toEqual([file.id]);
    const typo = expectStatus(await owner.api.cloud.search({ query: { q: 'sesions' } }), 200).body.data;
    expect(typo.results.length).toBeGreaterThan(0);
    const theirs = expectStatus(await stranger.api.cloud.search({ query: { q: 'bass' } }), 200).body.data;
    expect(theirs.results).toEqual([]);
    expectStatus(await owner.api.cloud.search({ query: { q: ' ' } }), 400);
  });
});
