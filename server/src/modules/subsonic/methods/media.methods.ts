import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { UserActor } from '../../../platform/access/actor.js';
import type { ServedImage } from '../../media/image-sizes.js';
import type { AvatarsService } from '../../media/avatars.service.js';
import type { MediaService } from '../../media/media.service.js';
import type { TracksService } from '../../tracks/tracks.service.js';
import type { ProfilesService } from '../../users/profiles.service.js';
import { isUuid } from '../album-ids.js';
import { notFoundError } from '../rest-error.js';
import { method, REPLIED, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import type { SubsonicNode } from '../rest-serializer.js';
import type { SubsonicCatalogue } from '../subsonic-catalogue.js';

export interface MediaMethodsDeps {
  catalogue: SubsonicCatalogue;
  /** The media area's covers, as GET /tracks/{id}/cover allows them, scaled for players. */
  covers: Pick<MediaService, 'coverImage'>;
  /** The media area's avatars, scaled for players (who may see the profile is asked first, of the users area). */
  avatars: Pick<AvatarsService, 'avatarImage'>;
  /** The users area's profiles: whose profile the caller may see (banned, deactivated, blocking them: not). */
  profiles: Pick<ProfilesService, 'get' | 'getByUsername'>;
  /** The users area's blocks: nothing of a user the caller blocked either. */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /** The tracks area's lyrics (GET /tracks/{id}/lyrics). */
  lyrics: Pick<TracksService, 'lyrics'>;
}

/**
 * The caller as any listener: staff's power to see others' private or hidden things is for
 * moderation, not for a music app (as the catalogue reads the library).
 */
export const asListener = (actor: UserActor): UserActor => ({ ...actor, isAdmin: false, isStaff: false });

/** `size`: absent or 0 is the image as stored; any other side is fitted, brought into 16–2048 by the media area. */
const sideOf = (params: SubsonicParams): number | undefined => {
  const side = params.int('size', 0, { min: 0 });
  return side === 0 ? undefined : side;
};

/** If-None-Match: a list of ETags (weak ones compare too), or `*`. */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined && header.split(',').some((value) => ['*', etag, `W/${etag}`].includes(value.trim()));

/**
 * Writes an image as the reply: its type, length and ETag (an If-None-Match that holds it is a 304
 * without the bytes). Cache-Control stays the interface's no-store: the URL holds the caller's
 * credentials, so no shared cache may keep it, and apps keep covers by their coverArt id themselves.
 */
async function sendImage(
  http: { req: IncomingMessage; res: ServerResponse },
  image: ServedImage,
): Promise<typeof REPLIED> {
  const { req, res } = http;
  const ifNoneMatch = req.headers['if-none-match'];
  if (matches(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch, image.etag)) {
    res.writeHead(304, { ETag: image.etag, 'Cache-Control': 'no-store' }).end();
    return REPLIED;
  }
  const { body, size } = await image.read();
  res.setHeader('ETag', image.etag);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', image.contentType);
  if (size !== undefined) res.setHeader('Content-Length', String(size));
  if (req.method === 'HEAD') {
    body.destroy();
    res.writeHead(200).end();
    return REPLIED;
  }
  res.writeHead(200);
  await pipeline(body, res).catch(() => res.destroy());
  return REPLIED;
}

/** The lines of lyrics as OpenSubsonic's structuredLyrics holds them: timed when LRC, else each line of the text. */
function structuredLyrics(
  lyrics: { content: string; is_synced: boolean; lines: { time_ms: number; text: string }[] | null },
  display: { artist: string; title: string },
): SubsonicNode {
  const synced = lyrics.is_synced && lyrics.lines !== null;
  const line = synced
    ? lyrics.lines!.map((entry) => ({ start: entry.time_ms, value: entry.text }))
    : lyrics.content
        .trimEnd()
        .split(/\r?\n/)
        .map((text) => ({ value: text.trimEnd() }));
  // Riff does not know the lyrics' language: ISO 639's "undetermined", as OpenSubsonic asks
  return { displayArtist: display.artist, displayTitle: display.title, lang: 'und', synced, line };
}

/**
 * Media retrieval besides the audio: getCoverArt (a song's cover, an album's, an artist's avatar),
 * getAvatar, and OpenSubsonic's getLyricsBySongId (the songLyrics extension). Images are the media
 * area's, sized there; lyrics the tracks area's; whose they are and who may see them, the catalogue's
 * library rules first, then each area's own.
 */
export function mediaMethods(deps: MediaMethodsDeps): SubsonicMethod[] {
  const { catalogue } = deps;

  /** A creator's avatar, where the caller may see their profile (70 otherwise, or without one). */
  async function avatarOf(actor: UserActor, userId: string, side: number | undefined): Promise<ServedImage> {
    if (userId !== actor.id && (await deps.blockedEitherWay(actor.id, userId))) throw notFoundError('Avatar');
    await deps.profiles.get(asListener(actor), userId);
    return deps.avatars.avatarImage(userId, side);
  }

  /**
   * What a coverArt id names: a song (its cover), an artist (their avatar) or an album (the cover of
   * its first song that has one), each only in the caller's library; anything else is 70.
   */
  async function coverOf(actor: UserActor, id: string, side: number | undefined): Promise<ServedImage> {
    if (!isUuid(id)) throw notFoundError('Cover art');
    const listener = asListener(actor);
    if (await catalogue.track(actor, id)) return deps.covers.coverImage(listener, id, side);
    if ((await catalogue.artistsAmong(actor, [id])).length > 0) return avatarOf(actor, id, side);
    const { songs } = await catalogue.albumWithSongs(actor, id);
    const covered = songs.find((song) => song.cover_art_path !== null);
    if (!covered) throw notFoundError('Cover art');
    return deps.covers.coverImage(listener, covered.id, side);
  }

  return [
    method({
      name: 'getCoverArt',
      needs: 'read',
      handle: async ({ actor, params, http }) => {
        const side = sideOf(params);
        return sendImage(http, await coverOf(actor, params.required('id'), side));
      },
    }),
    method({
      name: 'getAvatar',
      needs: 'read',
      handle: async ({ actor, params, http }) => {
        const side = sideOf(params);
        const { profile } = await deps.profiles.getByUsername(asListener(actor), params.required('username'));
        return sendImage(http, await avatarOf(actor, profile.id, side));
      },
    }),
    // OpenSubsonic songLyrics: the lyrics of a song of the library, one structuredLyrics (none: an empty list)
    method({
      name: 'getLyricsBySongId',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const row = await catalogue.track(actor, params.required('id'));
        if (!row) throw notFoundError('Song');
        const { lyrics } = await deps.lyrics.lyrics(asListener(actor), row.id);
        const [song] = await catalogue.songNodes(actor, [row]);
        if (!lyrics || !song) return { lyricsList: {} };
        const display = { artist: String(song.artist), title: row.title };
        return { lyricsList: { structuredLyrics: [structuredLyrics(lyrics, display)] } };
      },
    }),
  ];
}
