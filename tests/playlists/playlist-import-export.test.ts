import { describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { API_PREFIX, PLAYLIST_IMPORT_MAX_BYTES, PLAYLIST_MAX_TRACKS, PLAYLISTS_PER_USER_MAX } from '@riff/contract';
import { createUser, type TestUser } from '../support/factories.js';
import { seedEntries, seedNamedTracks, seedPlaylists } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createPlaylist, errorOf, readPlaylist, trackIdsOf } from './playlist-helpers.js';
import { ownedPlaylists } from './library-helpers.js';

const suite = useTestServer();

/** Names no leftover track of another run shares (the PostgreSQL database is shared). */
const uniqueWord = () => `zq${randomBytes(5).toString('hex')}`;

async function importFile(user: TestUser, format: 'm3u' | 'xspf', content: string, title?: string) {
  return expectStatus(
    await user.api.playlists.import({ body: { format, content, ...(title !== undefined ? { title } : {}) } }),
    201,
  ).body.data;
}

async function exportFile(user: TestUser, id: string, format: 'm3u' | 'xspf') {
  return suite.http.get(`/playlists/${id}/export?format=${format}`, { token: user.token });
}

describe('playlists: import', () => {
  it('imports an M3U8: by track URL or id, else by artist and title ignoring case and accents; unmatched entries with their line', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const [joga, hyper, mine] = await seedNamedTracks(suite.server, owner.id, [
      { title: 'Jóga', artist: 'Björk' },
      { title: 'Hyperballad', artist: 'Björk' },
      { title: 'Demo Take', artist: 'Me', isPublic: false },
    ]);
    const word = uniqueWord();
    const [publicOfOther, privateOfOther] = await seedNamedTracks(suite.server, other.id, [
      { title: `Crème Brûlée ${word}`, artist: 'Les Éclairs' },
      { title: 'Secret Song', artist: 'Hidden', isPublic: false },
    ]);
    const m3u = [
      '#EXTM3U',
      '#PLAYLIST:Été à Reykjavík',
      '#EXTINF:305,BJORK - joga',
      '/music/Bjork/Homogenic/01 Joga.flac',
      '',
      `#EXTINF:200,Whoever - Whatever`,
      `${suite.server.directUrl}${API_PREFIX}/tracks/${hyper}/stream`,
      `#EXTINF:-1,les eclairs - CREME BRULEE ${word.toUpperCase()}`,
      'C:\\Music\\creme.mp3',
      '#EXTINF:100,Hidden - Secret Song',
      'secret.mp3',
      `urn:uuid:${privateOfOther}`,
      '#EXTINF:180,Me - Demo Take',
      'demo.mp3',
      '#EXTINF:120,Nobody - Nothing Here',
      'http://elsewhere.example/nothing.mp3',
      '#EXTINF:305,Björk - Jóga',
      'again.mp3',
      mine!,
    ].join('\r\n');
    const reply = await importFile(owner, 'm3u', m3u);
    expect(reply.matched).toBe(4);
    expect(reply.unmatched).toEqual([
      { line: 10, title: 'Secret Song', artist: 'Hidden' },
      { line: 12, title: null, artist: null },
      { line: 15, title: 'Nothing Here', artist: 'Nobody' },
    ]);
    expect(reply.playlist).toMatchObject({
      title: 'Été à Reykjavík',
      user_id: owner.id,
      is_public: false,
      track_count: 4,
      is_default_favorites: false,
    });
    expect(reply.playlist.tracks).toBeUndefined();
    const { playlist } = await readPlaylist(owner, reply.playlist.id);
    // a track matched twice is added once, at its first place
    expect(trackIdsOf(playlist)).toEqual([joga, hyper, publicOfOther, mine]);
    expect(playlist.tracks!.map((entry) => entry.position)).toEqual([0, 1, 2, 3]);
    // private and the caller's: nobody else sees it
    expect(errorOf(await other.api.playlists.get({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
    // the event is recorded with the change: its audit entry is in the owner's log
    const audit = await sql<{
      action: string;
      user_id: string;
    }>`select action, user_id from audit_logs where resource_id = ${playlist.id}`.execute(
      suite.server.riff.platform.scope.db,
    );
    expect(audit.rows).toEqual([{ action: 'playlist.created', user_id: owner.id }]);
  });

  it('imports an XSPF: location or identifier, else creator and title; the title given wins over the file’s', async () => {
    const owner = await createUser(suite.server);
    const [first, second] = await seedNamedTracks(suite.server, owner.id, [
      { title: 'Ünïcödé & <Friends>', artist: 'Ça Va' },
      { title: 'Second', artist: 'Band' },
    ]);
    const xspf = `<?xml version="1.0" encoding="UTF-8"?>
<playlist version="1" xmlns="http://xspf.org/ns/0/">
  <title>From XSPF</title>
  <trackList>
    <track>
      <location>file:///x.ogg</location>
      <identifier>${suite.server.directUrl}${API_PREFIX}/tracks/${second}</identifier>
      <title>Not The Name</title>
    </track>
    <track>
      <title>UNICODE &amp; &lt;friends&gt;</title>
      <creator>ca va</creator>
      <duration>180000</duration>
    </track>
    <track><title><![CDATA[Missing <One>]]></title><creator>Ghost</creator></track>
  </trackList>
</playlist>`;
    const reply = await importFile(owner, 'xspf', xspf, 'Chosen title');
    expect(reply.playlist.title).toBe('Chosen title');
    expect(reply.matched).toBe(2);
    expect(reply.unmatched).toEqual([{ line: 15, title: 'Missing <One>', artist: 'Ghost' }]);
    expect(trackIdsOf((await readPlaylist(owner, reply.playlist.id)).playlist)).toEqual([second, first]);
  });

  it('names an untitled import "Imported playlist"; an empty but valid file makes an empty playlist', async () => {
    const owner = await createUser(suite.server);
    const empty = await importFile(owner, 'm3u', '#EXTM3U\n');
    expect(empty).toMatchObject({
      matched: 0,
      unmatched: [],
      playlist: { title: 'Imported playlist', track_count: 0 },
    });
    const xspf = await importFile(
      owner,
      'xspf',
      '<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>',
    );
    expect(xspf.playlist.title).toBe('Imported playlist');
  });

  it('refuses a file that is not the format named (400 VALIDATION_FAILED) and creates nothing', async () => {
    const owner = await createUser(suite.server);
    const cases: ['m3u' | 'xspf', string][] = [
      ['m3u', '<?xml version="1.0"?><playlist xmlns="http://xspf.org/ns/0/"><trackList/></playlist>'],
      ['m3u', '   \n\n  '],
      ['xspf', '#EXTM3U\n#EXTINF:1,a - b\nx.mp3\n'],
      ['xspf', '<playlist xmlns="http://xspf.org/ns/0/"><trackList><track><title>x</trackList></playlist>'],
      ['xspf', '<rss version="2.0"><channel/></rss>'],
      ['xspf', '<playlist xmlns="http://xspf.org/ns/0/"><title>no list</title></playlist>'],
      [
        'xspf',
        '<!DOCTYPE playlist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><playlist><trackList><track><title>&xxe;</title></track></trackList></playlist>',
      ],
      ['m3u', '#EXTM3U\n#EXTHTTP:{not json\nhttp://x/a.mp3\n'],
    ];
    for (const [format, content] of cases) {
      const reply = await suite.http.post('/playlists/import', { token: owner.token, body: { format, content } });
      expect(errorOf(reply), `${format}: ${content}`).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(
      errorOf(
        await suite.http.post('/playlists/import', { token: owner.token, body: { format: 'pls', content: 'x' } }),
      ),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect(
      errorOf(await suite.http.post('/playlists/import', { token: owner.token, body: { format: 'm3u', content: '' } })),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect((await suite.http.post('/playlists/import', { body: { format: 'm3u', content: '#EXTM3U' } })).status).toBe(
      401,
    );
    expect(await ownedPlaylists(suite.server, owner.id)).toBe(0);
  });

  it('takes a file of up to PLAYLIST_IMPORT_MAX_BYTES bytes even when its JSON is larger; one byte more is 413', async () => {
    const owner = await createUser(suite.server);
    // newlines and quotes double in JSON: the body is well over 1 MiB
    const line = '# "comment" \\ line\n';
    let content = `#EXTM3U\n${line.repeat(Math.floor((PLAYLIST_IMPORT_MAX_BYTES - 8) / line.length))}`;
    content += '#'.repeat(PLAYLIST_IMPORT_MAX_BYTES - Buffer.byteLength(content));
    expect(Buffer.byteLength(content)).toBe(PLAYLIST_IMPORT_MAX_BYTES);
    expect(JSON.stringify(content).length).toBeGreaterThan(PLAYLIST_IMPORT_MAX_BYTES * 1.2);
    expect((await importFile(owner, 'm3u', content)).matched).toBe(0);
    // counted in UTF-8 bytes, not characters
    const tooBig = `${content.slice(0, -1)}é`;
    expect(tooBig.length).toBe(content.length);
    const refused = await suite.http.post('/playlists/import', {
      token: owner.token,
      body: { format: 'm3u', content: tooBig },
    });
    expect(errorOf(refused)).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await ownedPlaylists(suite.server, owner.id)).toBe(1);
  });

  it(`refuses more than ${PLAYLIST_MAX_TRACKS} entries (400 LIMIT_REACHED) and a user at ${PLAYLISTS_PER_USER_MAX} playlists`, async () => {
    const owner = await createUser(suite.server);
    const tooMany = `#EXTM3U\n${'a.mp3\n'.repeat(PLAYLIST_MAX_TRACKS + 1)}`;
    expect(
      errorOf(
        await suite.http.post('/playlists/import', { token: owner.token, body: { format: 'm3u', content: tooMany } }),
      ),
    ).toEqual([400, 'LIMIT_REACHED']);
    await seedPlaylists(suite.server, owner.id, PLAYLISTS_PER_USER_MAX);
    expect(
      errorOf(
        await suite.http.post('/playlists/import', {
          token: owner.token,
          body: { format: 'm3u', content: '#EXTM3U\n' },
        }),
      ),
    ).toEqual([400, 'LIMIT_REACHED']);
    expect(await ownedPlaylists(suite.server, owner.id)).toBe(PLAYLISTS_PER_USER_MAX);
  });

  it(`imports ${PLAYLIST_MAX_TRACKS} entries quickly, half by URL and half by name`, async () => {
    const owner = await createUser(suite.server);
    const names = Array.from({ length: PLAYLIST_MAX_TRACKS }, (_, index) => ({
      title: `Song ${index}`,
      artist: `Artïst ${index % 97}`,
    }));
    const ids = await seedNamedTracks(suite.server, owner.id, names);
    const lines = ['#EXTM3U'];
    names.forEach((name, index) => {
      lines.push(`#EXTINF:180,${name.artist.toUpperCase()} - ${name.title}`);
      lines.push(
        index % 2 === 0 ? `${suite.server.directUrl}${API_PREFIX}/tracks/${ids[index]}/stream` : `/music/${index}.mp3`,
      );
    });
    const started = performance.now();
    const reply = await importFile(owner, 'm3u', lines.join('\n'));
    const elapsed = performance.now() - started;
    expect(reply.matched).toBe(PLAYLIST_MAX_TRACKS);
    expect(reply.unmatched).toEqual([]);
    expect(reply.playlist.track_count).toBe(PLAYLIST_MAX_TRACKS);
    const stored = await sql<{
      track_id: string;
    }>`select track_id from playlist_tracks where playlist_id = ${reply.playlist.id} order by position`.execute(
      suite.server.riff.platform.scope.db,
    );
    expect(stored.rows.map((row) => row.track_id)).toEqual(ids);
    expect(elapsed).toBeLessThan(20_000);
  }, 60_000);
});

describe('playlists: export', () => {
  it('exports extended M3U and XSPF of the tracks the caller may see, as an attachment', async () => {
    const owner = await createUser(suite.server);
    const viewer = await createUser(suite.server);
    const ids = await seedNamedTracks(suite.server, owner.id, [
      { title: 'Jóga', artist: 'Björk', album: 'Homogenic', duration: 305 },
      { title: 'Private <Take> & "Co"', artist: null, duration: 61, isPublic: false },
      { title: 'Last', artist: 'Band', album: null, duration: 10 },
    ]);
    const playlist = await createPlaylist(owner, { title: 'Road / "trip"\u00e9', is_public: true });
    await seedEntries(suite.server, playlist.id, ids, owner.id);
    const base = `${suite.server.riff.platform.config.publicBaseUrl}${API_PREFIX}/tracks`;

    const m3u = await exportFile(owner, playlist.id, 'm3u');
    expect(m3u.status).toBe(200);
    expect(m3u.headers.get('content-type')).toBe('audio/x-mpegurl; charset=utf-8');
    expect(m3u.headers.get('content-disposition')).toBe(
      `attachment; filename="Road trip e.m3u8"; filename*=UTF-8''Road%20trip%20%C3%A9.m3u8`,
    );
    expect(m3u.text).toBe(
      [
        '#EXTM3U',
        '#PLAYLIST:Road / "trip"é',
        '#EXTINF:305,Björk - Jóga',
        `${base}/${ids[0]}/stream`,
        '#EXTINF:61,Private <Take> & "Co"',
        `${base}/${ids[1]}/stream`,
        '#EXTINF:10,Band - Last',
        `${base}/${ids[2]}/stream`,
        '',
      ].join('\n'),
    );

    const xspf = await exportFile(owner, playlist.id, 'xspf');
    expect(xspf.headers.get('content-type')).toBe('application/xspf+xml; charset=utf-8');
    expect(xspf.headers.get('content-disposition')).toMatch(/^attachment; filename="Road trip e\.xspf"/);
    expect(xspf.text).toContain('<playlist version="1" xmlns="http://xspf.org/ns/0/">');
    expect(xspf.text).toContain(
      `<track>\n      <location>${base}/${ids[0]}/stream</location>\n      <identifier>${base}/${ids[0]}</identifier>\n      <title>Jóga</title>\n      <creator>Björk</creator>\n      <album>Homogenic</album>\n      <duration>305000</duration>\n    </track>`,
    );
    expect(xspf.text).toContain('<title>Private &lt;Take&gt; &amp; "Co"</title>');

    // another user sees the public tracks only
    const seen = await exportFile(viewer, playlist.id, 'm3u');
    expect(seen.text).not.toContain(ids[1]);
    expect(seen.text.match(/#EXTINF/g)).toHaveLength(2);
  });

  it('answers 404 for a playlist the caller may not see, 400 for a bad id or format, 401 without a token', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const hidden = await createPlaylist(owner);
    expect(errorOf(await exportFile(other, hidden.id, 'm3u'))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await exportFile(other, randomUUID(), 'xspf'))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await suite.http.get('/playlists/nope/export?format=m3u', { token: owner.token }))).toEqual([
      400,
      'INVALID_ID',
    ]);
    expect(errorOf(await suite.http.get(`/playlists/${hidden.id}/export?format=pls`, { token: owner.token }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(errorOf(await suite.http.get(`/playlists/${hidden.id}/export`, { token: owner.token }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect((await suite.http.get(`/playlists/${hidden.id}/export?format=m3u`, {})).status).toBe(401);
  });

  it('round-trips: importing an export gives the same tracks in the same order, in both formats', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const word = uniqueWord();
    const mine = await seedNamedTracks(suite.server, owner.id, [
      { title: `Zeta ${word}`, artist: 'A - B' },
      { title: `Alpha, "quoted"\nline ${word}`, artist: 'Ça & Co', album: 'X <Y>' },
      { title: `Only Title ${word}`, artist: null, isPublic: false },
    ]);
    const theirs = await seedNamedTracks(suite.server, other.id, [{ title: `Guest ${word}`, artist: 'Other' }]);
    const order = [mine[1]!, theirs[0]!, mine[2]!, mine[0]!];
    const playlist = await createPlaylist(owner, { title: 'Round & "trip"' });
    await seedEntries(suite.server, playlist.id, order, owner.id);
    for (const format of ['m3u', 'xspf'] as const) {
      const file = await exportFile(owner, playlist.id, format);
      const copy = await importFile(owner, format, file.text);
      expect(copy.unmatched).toEqual([]);
      expect(copy.playlist.title).toBe('Round & "trip"');
      expect(trackIdsOf((await readPlaylist(owner, copy.playlist.id)).playlist), format).toEqual(order);
    }
    // without the URLs, another user's import finds by name what they may see ("A - B - Zeta" reads as artist A)
    const m3u = (await exportFile(owner, playlist.id, 'm3u')).text.replace(/^http.*$/gm, 'elsewhere.mp3');
    const byName = await importFile(other, 'm3u', m3u);
    expect(trackIdsOf((await readPlaylist(other, byName.playlist.id)).playlist)).toEqual([mine[1], theirs[0]]);
    expect(byName.unmatched).toEqual([
      { line: 7, title: `Only Title ${word}`, artist: null },
      { line: 9, title: `B - Zeta ${word}`, artist: 'A' },
    ]);
  });
});
