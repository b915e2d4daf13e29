// The baseline: a bare Node HTTP server doing the same I/O as Riff with nothing else: no framework,
// no validation, no logging, no auth. Run with tsx (bench/bench-support.ts starts it).
//   POST /upload      parses the multipart body with busboy and streams its file part to a file
//   GET  /file        serves SERVE_FILE, with one Range when asked
//   GET  /tracks/:id  one query by primary key, the row as JSON
//   GET  /tracks      one page of public tracks and their count
//   GET  /users/:id   the user with follow counts
//   POST /tracks/:id/play  reads the track, then records the play as Riff does (bench/play-scenario.ts)
//   /live (WebSocket) and POST /live/change  a live session's fan-out (bench/live-scenario.ts)
//   GET  /playlists/:id  a playlist with its tracks in order (bench/playlist-scenario.ts)
// On PostgreSQL (DATABASE_URL) it reads Riff's own rows with `pg`; embedded, it opens its own
// PGlite with Riff's migrations and writes rows like Riff's (SEED_USER_ID, SEED_TRACK_ID and
// SEED_TRACKS tracks), since one PGlite directory belongs to one process.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import busboy from 'busboy';
import { Kysely } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../server/src/platform/db/database.js';
import { PGliteDialect } from '../server/src/platform/db/pglite-dialect.js';
import { attachBareLive, BARE_LIVE_PATH } from './live-scenario.js';
import { BARE_PLAY_ROUTE, barePlay } from './play-scenario.js';
import { BARE_PLAYLIST_ROUTE, barePlaylist, seedPlaylist } from './playlist-scenario.js';

type Query = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

const TRACK = 'select * from tracks where id = $1 and deleted_at is null';
const TRACKS =
  'select *, count(*) over () as total from tracks where deleted_at is null and is_public = true order by created_at desc, id limit 20 offset 0';
const USER =
  'select u.*, (select count(*) from follows f where f.followee_id = u.id) as follower_count, ' +
  '(select count(*) from follows f where f.follower_id = u.id) as following_count ' +
  'from users u where u.id = $1 and u.deleted_at is null and u.is_active and not u.is_banned and u.is_verified';

async function connect(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return async (text, values) => (await pool.query(text, values)).rows;
  }
  const pglite = await PGlite.create({
    dataDir: path.join(process.env.DATA_DIR!, 'bare-pglite'),
    extensions: { citext, pg_trgm },
    postgresqlconf: ['shared_buffers = 32MB'],
    parsers: { [types.INT8]: (value: string) => Number(value), [types.DATE]: (value: string) => value },
  });
  await migrateToLatest(new Kysely({ dialect: new PGliteDialect(pglite) }));
  const query: Query = async (text, values) => (await pglite.query<Record<string, unknown>>(text, values)).rows;
  if (process.env.SEED_USER_ID)
    await seed(query, process.env.SEED_USER_ID, process.env.SEED_TRACK_ID!, Number(process.env.SEED_TRACKS ?? 1));
  if (process.env.SEED_PLAYLIST_ID)
    await seedPlaylist(query, { userId: process.env.SEED_PLAYLIST_USER_ID!, playlistId: process.env.SEED_PLAYLIST_ID });
  return query;
}

/** A verified user and `tracks` public tracks with the metadata an upload gives (the first with `trackId`). */
async function seed(query: Query, userId: string, trackId: string, tracks: number): Promise<void> {
  await query(
    `insert into users (id, email, username, slug, password_hash, social_links, is_verified, email_verified_at)
     values ($1, 'bare@example.test', 'bare', 'bare', 'x', '{}', true, now())`,
    [userId],
  );
  for (let i = 0; i < tracks; i++) {
    await query(
      `insert into tracks (id, creator_id, title, genres, tags, duration, bitrate, sample_rate, file_size, format, file_key, md5, original_filename, status, is_public)
       values (coalesce($1, gen_random_uuid()), $2, $3, '[]', '[]', 190.2, 1411, 44100, 33554432, 'wav', $4, md5($3), 'bench.wav', 'completed', true)`,
      [i === 0 ? trackId : null, userId, `bench ${i}`, `tracks/${i}/original.wav`],
    );
  }
}

const query = await connect();
let count = 0;

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** busboy → disk, the plain way (default buffer sizes): resolves once the file part is on disk. */
function receiveFile(req: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = busboy({ headers: req.headers });
    let written: Promise<void> | undefined;
    parser.on('file', (_name, stream) => {
      written = pipeline(stream, createWriteStream(path.join(process.env.DATA_DIR!, `upload-${count++}`)));
    });
    parser.on('close', () => (written ?? Promise.reject(new Error('no file part'))).then(resolve, reject));
    parser.on('error', reject);
    req.pipe(parser);
  });
}

const server = createServer(async (req, res) => {
  const url = req.url ?? '/';
  if (url === '/healthz' || url === '/readyz') return res.end('ok');
  if (req.method === 'POST' && url === '/upload') {
    try {
      await receiveFile(req);
      return res.end('{}');
    } catch (error) {
      return json(res, 400, { success: false, error: String(error) });
    }
  }
  if (url === '/file') {
    const file = process.env.SERVE_FILE!;
    const size = statSync(file).size;
    const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (match) {
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), size - 1);
      res.writeHead(206, {
        'content-type': 'audio/wav',
        'content-length': end - start + 1,
        'content-range': `bytes ${start}-${end}/${size}`,
        'accept-ranges': 'bytes',
      });
      return createReadStream(file, { start, end }).pipe(res);
    }
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': size });
    return createReadStream(file).pipe(res);
  }
  try {
    if (req.method === 'POST' && url === `${BARE_LIVE_PATH}/change`)
      return json(res, 200, JSON.parse(await liveChange(req)));
    const playlist = BARE_PLAYLIST_ROUTE.exec(url);
    if (playlist) {
      const body = await barePlaylist(query, playlist[1]!);
      if (body === undefined) return json(res, 404, { success: false });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    const play = BARE_PLAY_ROUTE.exec(url);
    if (req.method === 'POST' && play) {
      const played = await barePlay(query, play[1]!, req);
      return played ? json(res, 200, { success: true, data: played }) : json(res, 404, { success: false });
    }
    const byId = /^\/(tracks|users)\/([0-9a-f-]{36})$/.exec(url);
    if (byId) {
      const [row] = await query(byId[1] === 'tracks' ? TRACK : USER, [byId[2]]);
      return row ? json(res, 200, { success: true, data: row }) : json(res, 404, { success: false });
    }
    if (url === '/tracks') {
      const rows = await query(TRACKS, []);
      return json(res, 200, { success: true, data: { tracks: rows, total: rows[0]?.total ?? 0 } });
    }
  } catch (error) {
    return json(res, 500, { success: false, error: String(error) });
  }
  res.statusCode = 404;
  res.end();
});
const liveChange = attachBareLive(server, query);
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
