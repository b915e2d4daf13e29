import type { UserActor } from '../../../platform/access/actor.js';
import type { ProfilesService } from '../../users/profiles.service.js';
import { isUuid } from '../album-ids.js';
import { notFoundError } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import { childText, type SubsonicNode } from '../rest-serializer.js';
import { songsLikeArtist, type SimilarDeps } from '../similar-songs.js';
import { asListener } from './media.methods.js';

export interface InfoMethodsDeps extends SimilarDeps {
  /** The users area's profiles: an artist's biography and avatar, as the caller may see them. */
  profiles: Pick<ProfilesService, 'get'>;
  /** PUBLIC_BASE_URL: the image URLs are absolute. */
  publicBaseUrl: string;
}

/** The sides the stored avatar comes in (GET /users/{id}/avatar?size=). */
const AVATAR_SMALL = 128;
const AVATAR_LARGE = 512;

/** ArtistInfoBase's and AlbumInfo's image URLs: small, medium and large. */
function imageUrls(small: string | undefined, medium: string | undefined, large: string | undefined): SubsonicNode {
  return {
    smallImageUrl: small === undefined ? undefined : childText(small),
    mediumImageUrl: medium === undefined ? undefined : childText(medium),
    largeImageUrl: large === undefined ? undefined : childText(large),
  };
}

/**
 * getArtistInfo2 and getAlbumInfo2: what Riff knows beside the music. The URLs are the JSON API's
 * public image routes (an app shows them without Subsonic credentials, which must not travel in a
 * URL handed out); apps that want a size ask getCoverArt with the artist's or album's id.
 */
export function infoMethods(deps: InfoMethodsDeps): SubsonicMethod[] {
  const { catalogue } = deps;

  /** The artist an id names (an artist, or the creator of a song or an album of the library); 70 otherwise. */
  async function artistOf(actor: UserActor, id: string): Promise<string> {
    if (!isUuid(id)) throw notFoundError('Artist');
    if ((await catalogue.artistsAmong(actor, [id])).length > 0) return id;
    const track = await catalogue.track(actor, id);
    if (track) return track.creator_id;
    return (await catalogue.albumWithSongs(actor, id)).album.row.creator_id;
  }

  /** The path of the cover an album or song id shows (the first of the album's songs that has one). */
  async function coverPathOf(actor: UserActor, id: string): Promise<string | null> {
    if (!isUuid(id)) throw notFoundError('Album');
    const track = await catalogue.track(actor, id);
    if (track) return track.cover_art_path;
    const { songs } = await catalogue.albumWithSongs(actor, id);
    return songs.find((song) => song.cover_art_path !== null)?.cover_art_path ?? null;
  }

  return [
    // the biography is the creator's bio (where their profile shows it); images their avatar; similar
    // artists the creators of the songs like theirs (similar-songs.ts), `count` of them (20)
    method({
      name: 'getArtistInfo2',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const count = Math.min(500, params.int('count', 20, { min: 0 }));
        const artistId = await artistOf(actor, params.required('id'));
        const { profile } = await deps.profiles.get(asListener(actor), artistId);
        const bio = profile.bio?.trim();
        const avatar = profile.avatar ?? undefined;
        // the stored avatar comes in two sides; an address the user gave is one image
        const stored = avatar?.startsWith(`${deps.publicBaseUrl}/api/v1/users/`) ?? false;
        const sized = (side: number) => (avatar !== undefined && stored ? `${avatar}?size=${side}` : avatar);
        let similarArtist: SubsonicNode[] | undefined;
        if (count > 0) {
          const { similar } = await songsLikeArtist(deps, actor, artistId);
          const others = similar.map((row) => row.creator_id).filter((id) => id !== artistId);
          similarArtist = (await catalogue.artistsAmong(actor, others))
            .slice(0, count)
            .map((artist) => catalogue.artistNode(artist));
        }
        return {
          artistInfo2: {
            biography: bio ? childText(bio) : undefined,
            ...imageUrls(sized(AVATAR_SMALL), sized(AVATAR_LARGE), sized(AVATAR_LARGE)),
            similarArtist,
          },
        };
      },
    }),
    // Riff has no album notes; the images are the album's cover (the JSON API's, one size)
    method({
      name: 'getAlbumInfo2',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const path = await coverPathOf(actor, params.required('id'));
        const url = path === null ? undefined : `${deps.publicBaseUrl}${path}`;
        return { albumInfo: imageUrls(url, url, url) };
      },
    }),
  ];
}
