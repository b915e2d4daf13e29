import type { UserActor } from '../../../platform/access/actor.js';
import type { SocialService } from '../../social/social.service.js';
import { isUuid } from '../album-ids.js';
import { SUBSONIC_ERROR, SubsonicError, notFoundError } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicNode } from '../rest-serializer.js';
import type { LibrarySongs, SubsonicSongs } from '../subsonic-songs.js';

export interface SharingMethodsDeps {
  /** Track social's shares and secret links (POST and DELETE /tracks/{id}/share): their rules, limit and events. */
  social: Pick<SocialService, 'share' | 'revokeShare' | 'secretLinksOf'>;
  songs: SubsonicSongs;
  now(): Date;
}

const invalid = (message: string) => new SubsonicError(SUBSONIC_ERROR.generic, message);

/**
 * Sharing: Riff's share links of tracks. A share is one song and its id is the song's. createShare on
 * a private track of the caller's makes (or answers again) its secret link, as POST /tracks/{id}/share
 * does; on a public track it answers the track's public address and counts a share. getShares lists
 * the caller's secret links that work now, deleteShare revokes one (DELETE /tracks/{id}/share). Riff
 * keeps no description, expiry or visits for a link: `description` is not kept, an `expires` is
 * refused (a link works until it is revoked), `visitCount` is 0, and `created` is when the caller
 * last shared the track.
 */
export function sharingMethods(deps: SharingMethodsDeps): SubsonicMethod[] {
  const { social, songs } = deps;

  function shareNode(
    actor: UserActor,
    share: { trackId: string; url: string; created: Date },
    found: LibrarySongs,
  ): SubsonicNode {
    return {
      id: share.trackId,
      url: share.url,
      username: actor.user.username,
      created: share.created.toISOString(),
      visitCount: 0,
      entry: songs.nodes(actor, [share.trackId], found),
    };
  }

  async function secretLinks(actor: UserActor) {
    return (await social.secretLinksOf(actor)).map((link) => ({
      trackId: link.track_id,
      url: link.share_url,
      created: link.shared_at,
    }));
  }

  return [
    method({
      name: 'getShares',
      needs: 'read',
      handle: async ({ actor }) => {
        const links = await secretLinks(actor);
        const found = await songs.find(
          actor,
          links.map((link) => link.trackId),
        );
        return { shares: { share: links.map((link) => shareNode(actor, link, found)) } };
      },
    }),
    method({
      name: 'createShare',
      needs: 'write',
      handle: async ({ actor, params }) => {
        const ids = params.all('id').filter((id) => id !== '');
        if (ids.length === 0) params.required('id');
        if (ids.length > 1) throw invalid('A Riff share link is for one song: send one id');
        // a link without an end is not what the app asked for: better refused than kept open
        if (params.int('expires', 0, { min: 0 }) > 0) {
          throw invalid('Riff share links do not expire: revoke one with deleteShare');
        }
        const id = ids[0]!.toLowerCase();
        const found = isUuid(id) ? await songs.find(actor, [id]) : undefined;
        if (!found?.rows.has(id)) throw notFoundError('Song');
        const { share_url: url } = await social.share(actor, id, { platform: 'link' });
        return { shares: { share: [shareNode(actor, { trackId: id, url, created: deps.now() }, found)] } };
      },
    }),
    method({
      name: 'deleteShare',
      needs: 'write',
      handle: async ({ actor, params }) => {
        const id = params.required('id').toLowerCase();
        // only the caller's own links: another's, a public track's or an unknown id is not found
        if (!(await secretLinks(actor)).some((link) => link.trackId === id)) throw notFoundError('Share');
        await social.revokeShare(actor, id);
        return {};
      },
    }),
  ];
}
