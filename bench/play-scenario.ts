/**
 * ADDENDUM's play goal (issue 13): `POST /tracks/{id}/play` sustains ≥ 60 % of the req/s of a bare
 * node:http + pg server doing the same insert and counter update, on PostgreSQL. bench/run.ts runs it
 * (`--only=writes`) and bench/bare-server.ts serves the bare half from here.
 *
 * Each request carries a user agent of its own, so each is a new anonymous listener and every play
 * counts: both servers then write the listener's window row, the play row and play_count + 1 on
 * every request (a repeat listener would make Riff's work smaller than the bare server's).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type autocannon from 'autocannon';

/** The same signature as bare-server.ts's query function. */
export type Query = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

export const PLAY_BODY = JSON.stringify({ duration_listened: 45, source: 'track' });

export const riffPlayPath = (trackId: string) => `/api/v1/tracks/${trackId}/play`;
export const barePlayPath = (trackId: string) => `/tracks/${trackId}/play`;
export const BARE_PLAY_ROUTE = /^\/tracks\/([0-9a-f-]{36})\/play$/;

/** autocannon options for either server: POST with a JSON body, a new user agent per request. */
export function playRequests(): Pick<autocannon.Options, 'method' | 'headers' | 'body' | 'requests'> {
  const run = randomUUID().slice(0, 8);
  let sent = 0;
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: PLAY_BODY,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            'user-agent': `bench-listener-${run}-${sent++}`,
          },
        }),
      },
    ],
  };
}

/** The track's visibility and length (Riff reads the row to apply its policy and the 30-second rule). */
export const BARE_TRACK_SQL = 'select id, duration, is_public from tracks where id = $1 and deleted_at is null';

/**
 * What Riff's PlaysRepository.record runs, as one statement: the listener's 30-minute window row
 * (insert, or move when 30 minutes old), play_count + 1 when it counted, and the play row.
 * $1 track, $2 listener, $3 eligible, $4 duration, $5 completed.
 */
export const BARE_PLAY_SQL = `
  with win as (
    insert into track_play_windows (track_id, listener, counted_at)
    select $1::uuid, $2, now() where $3::boolean
    on conflict (track_id, listener) do update set counted_at = excluded.counted_at
      where track_play_windows.counted_at <= excluded.counted_at - interval '30 minutes'
    returning track_id
  ),
  bump as (update tracks set play_count = play_count + 1 where id = (select track_id from win) returning id),
  played as (
    insert into track_plays (track_id, user_id, listener, source, playlist_id, duration_listened, completed, counted, played_at)
    select $1::uuid, null, $2, 'track', null, $4::double precision, $5::boolean, exists (select 1 from win), now()
  )
  select exists (select 1 from win) as counted`;

async function readJson(req: IncomingMessage): Promise<{ duration_listened?: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { duration_listened?: unknown };
}

/** The bare server's POST /tracks/{id}/play: parse, read the track, one statement. */
export async function barePlay(
  query: Query,
  trackId: string,
  req: IncomingMessage,
): Promise<{ counted: boolean } | undefined> {
  const body = await readJson(req);
  const duration = Number(body.duration_listened);
  const [track] = await query(BARE_TRACK_SQL, [trackId]);
  if (!track || track['is_public'] !== true) return undefined;
  const length = Number(track['duration']);
  const listener = `a:${createHash('sha256')
    .update(`${req.socket.remoteAddress ?? ''}\n${req.headers['user-agent'] ?? ''}`)
    .digest('base64url')}`;
  const [row] = await query(BARE_PLAY_SQL, [
    trackId,
    listener,
    duration >= Math.min(30, length),
    duration,
    length > 0 && duration >= length,
  ]);
  return { counted: row?.['counted'] === true };
}
