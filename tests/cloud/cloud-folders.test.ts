/**
 * Cloud folders: nesting with the path from the top, listings (folders then files, each by name),
 * rename and move without cycles, name rules, the depth limit, and another user's folder as nothing.
 */
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

type User = Awaited<ReturnType<typeof createUser>>;

async function folder(user: User, name: string, parentId?: string) {
  return expectStatus(await user.api.cloud.createFolder({ body: { name, parent_id: parentId } }), 201).body.data.folder;
}

const fileOf = (text: string, name: string) => new File([text], name);

describe('cloud folders', () => {
  it('nests folders and lists a folder with its path, folders first then files, each by name', async () => {
    const owner = await createUser(suite.server);
    const album = await folder(owner, 'Album 2026');
    expect(album.parent_id).toBeNull();
    const stems = await folder(owner, 'Stems', album.id);
    const drums = await folder(owner, 'drums', stems.id);
    await folder(owner, 'Bass', stems.id);
    for (const name of ['b.txt', 'A.txt']) {
      expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf(name, name), folder_id: stems.id } }), 201);
    }

    const listing = expectStatus(await owner.api.cloud.folder({ params: { id: stems.id }, query: {} }), 200).body.data;
    expect(listing.folder?.id).toBe(stems.id);
    expect(listing.path.map((item) => item.name)).toEqual(['Album 2026']);
    expect(listing.folders.map((item) => item.name)).toEqual(['Bass', 'drums']);
    expect(listing.files.map((item) => item.name)).toEqual(['A.txt', 'b.txt']);
    expect(listing.pagination).toEqual({ page: 1, limit: 20, total: 4, total_pages: 1 });

    // one page runs on from the folders into the files
    const second = expectStatus(
      await owner.api.cloud.folder({ params: { id: stems.id }, query: { page: 2, limit: 3 } }),
      200,
    ).body.data;
    expect(second.folders).toEqual([]);
    expect(second.files.map((item) => item.name)).toEqual(['b.txt']);
    const first = expectStatus(
      await owner.api.cloud.folder({ params: { id: stems.id }, query: { page: 1, limit: 3 } }),
      200,
    ).body.data;
    expect([...first.folders, ...first.files].map((item) => item.name)).toEqual(['Bass', 'drums', 'A.txt']);

    const deep = expectStatus(await owner.api.cloud.folder({ params: { id: drums.id }, query: {} }), 200).body.data;
    expect(deep.path.map((item) => item.id)).toEqual([album.id, stems.id]);

    const root = expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data;
    expect(root.folder).toBeNull();
    expect(root.path).toEqual([]);
    expect(root.folders.map((item) => item.id)).toEqual([album.id]);
  });

  it('refuses names that are empty, hold / or NUL, or are . or ..; a name is unique in a folder ignoring case', async () => {
    const owner = await createUser(suite.server);
    for (const name of ['', '.', '..', 'a/b', 'nul\u0000here', 'x'.repeat(256)]) {
      const refused = expectStatus(await owner.api.cloud.createFolder({ body: { name } }), 400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }
    const mixes = await folder(owner, 'Mixes');
    expect(expectStatus(await owner.api.cloud.createFolder({ body: { name: 'MIXES' } }), 409).body.error.code).toBe(
      'NAME_TAKEN',
    );
    // a file and a folder share the names of one folder
    expectStatus(await owner.api.cloud.uploadFile({ body: { file: fileOf('x', 'notes.txt') } }), 201);
    expect(expectStatus(await owner.api.cloud.createFolder({ body: { name: 'Notes.TXT' } }), 409).body.error.code).toBe(
      'NAME_TAKEN',
    );
    // the same name elsewhere is fine; a rename onto a taken name is not
    await folder(owner, 'Mixes', mixes.id);
    const other = await folder(owner, 'Other');
    expect(
      expectStatus(await owner.api.cloud.updateFolder({ params: { id: other.id }, body: { name: 'mixes' } }), 409).body
        .error.code,
    ).toBe('NAME_TAKEN');
    // renaming to its own name in another case is allowed
    const renamed = expectStatus(
      await owner.api.cloud.updateFolder({ params: { id: other.id }, body: { name: 'OTHER' } }),
      200,
    ).body.data.folder;
    expect(renamed.name).toBe('OTHER');
  });

  it('parallel creations of one name: one is made, the others are 409 NAME_TAKEN', async () => {
    const owner = await createUser(suite.server);
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => owner.api.cloud.createFolder({ body: { name: 'Same' } })),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const root = expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data;
    expect(root.folders.map((item) => item.name)).toEqual(['Same']);
  });

  it('moves a folder; never into itself or its descendants, and two crossing moves cannot make a cycle', async () => {
    const owner = await createUser(suite.server);
    const a = await folder(owner, 'A');
    const b = await folder(owner, 'B');
    const inner = await folder(owner, 'inner', a.id);
    expectStatus(await owner.api.cloud.updateFolder({ params: { id: a.id }, body: { parent_id: a.id } }), 400);
    expectStatus(await owner.api.cloud.updateFolder({ params: { id: a.id }, body: { parent_id: inner.id } }), 400);

    const [aIntoB, bIntoA] = await Promise.all([
      owner.api.cloud.updateFolder({ params: { id: a.id }, body: { parent_id: b.id } }),
      owner.api.cloud.updateFolder({ params: { id: b.id }, body: { parent_id: a.id } }),
    ]);
    expect([aIntoB.status, bIntoA.status].sort()).toEqual([200, 400]);
    const aNow = expectStatus(await owner.api.cloud.folder({ params: { id: a.id }, query: {} }), 200).body.data;
    const bNow = expectStatus(await owner.api.cloud.folder({ params: { id: b.id }, query: {} }), 200).body.data;
    // exactly one of them is at the top, the other inside it
    const tops = [aNow, bNow].filter((listing) => listing.folder?.parent_id === null);
    expect(tops).toHaveLength(1);
    const root = expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data;
    expect(root.folders).toHaveLength(1);

    // back to the top
    const moved = aNow.folder?.parent_id === null ? bNow.folder! : aNow.folder!;
    const top = expectStatus(
      await owner.api.cloud.updateFolder({ params: { id: moved.id }, body: { parent_id: null } }),
      200,
    ).body.data.folder;
    expect(top.parent_id).toBeNull();
  });

  it('nests at most 32 levels, on creation and on a move', async () => {
    const owner = await createUser(suite.server);
    let parent: string | undefined;
    const chain: string[] = [];
    for (let depth = 1; depth <= 32; depth++) {
      parent = (await folder(owner, `level ${depth}`, parent)).id;
      chain.push(parent);
    }
    const refused = expectStatus(
      await owner.api.cloud.createFolder({ body: { name: 'too deep', parent_id: parent } }),
      400,
    );
    expect(refused.body.error.code).toBe('LIMIT_REACHED');
    const listing = expectStatus(await owner.api.cloud.folder({ params: { id: parent! }, query: {} }), 200).body.data;
    expect(listing.path).toHaveLength(31);

    // a folder holding one level moved under level 31 would put that level at 33
    const pair = await folder(owner, 'pair');
    await folder(owner, 'child', pair.id);
    expectStatus(await owner.api.cloud.updateFolder({ params: { id: pair.id }, body: { parent_id: chain[30]! } }), 400);
    expectStatus(await owner.api.cloud.updateFolder({ params: { id: pair.id }, body: { parent_id: chain[29]! } }), 200);
    // the child followed: it is at 32, and nothing more fits under it
    const child = expectStatus(await owner.api.cloud.folder({ params: { id: pair.id }, query: {} }), 200).body.data
      .folders[0]!;
    expectStatus(await owner.api.cloud.createFolder({ body: { name: 'x', parent_id: child.id } }), 400);
  });

  it('another user’s folder is 404 everywhere: read, rename, move, as a parent or a target', async () => {
    const owner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const mine = await folder(owner, 'Mine');
    const theirs = await folder(stranger, 'Theirs');
    expectStatus(await stranger.api.cloud.folder({ params: { id: mine.id }, query: {} }), 404);
    expectStatus(await stranger.api.cloud.updateFolder({ params: { id: mine.id }, body: { name: 'x' } }), 404);
    expectStatus(await stranger.api.cloud.createFolder({ body: { name: 'in', parent_id: mine.id } }), 404);
    expectStatus(await owner.api.cloud.updateFolder({ params: { id: mine.id }, body: { parent_id: theirs.id } }), 404);
    expectStatus(
      await stranger.api.cloud.uploadFile({ body: { file: fileOf('x', 'x.txt'), folder_id: mine.id } }),
      404,
    );
    expectStatus(await suite.api.cloud.folder({ params: { id: mine.id }, query: {} }), 401);
    expect(
      expectStatus(await owner.api.cloud.root({ query: {} }), 200).body.data.folders.map((item) => item.name),
    ).toEqual(['Mine']);
  });
});
