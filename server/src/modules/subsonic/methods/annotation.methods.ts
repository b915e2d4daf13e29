import { invalidParameter, missingParameter } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import type { StarTargets, SubsonicAnnotations } from '../subsonic-annotations.js';

/**
 * The most ids one star, unstar or scrobble names: each is a like, a follow or a play with its own
 * unit of work, events and notifications, so a call is bounded as the API's batch routes are.
 */
export const ANNOTATED_IDS_MAX = 500;

function bounded(count: number): void {
  if (count > ANNOTATED_IDS_MAX) throw invalidParameter('id', `at most ${ANNOTATED_IDS_MAX} ids in one call`);
}

/** star's and unstar's ids (each may repeat); none at all is error 10. */
function starTargets(params: SubsonicParams): StarTargets {
  const targets = { ids: params.all('id'), albumIds: params.all('albumId'), artistIds: params.all('artistId') };
  const count = targets.ids.length + targets.albumIds.length + targets.artistIds.length;
  if (count === 0) throw missingParameter('id');
  bounded(count);
  return targets;
}

/** `time` values (ms since 1970), one per `id` when sent; anything but a whole number is error 0. */
function times(params: SubsonicParams): number[] {
  return params.all('time').map((value) => {
    if (!/^\d{1,15}$/.test(value)) throw invalidParameter('time', 'a time in milliseconds since 1970');
    return Number(value);
  });
}

/**
 * Media annotation (star, unstar, setRating, scrobble) and the two lists they feed (getStarred2 and
 * getNowPlaying, which OpenSubsonic files under lists): what a player app does with a song besides
 * playing it. The changes need `write`; subsonic-annotations.ts says what each one is in Riff.
 */
export function annotationMethods(annotations: SubsonicAnnotations): SubsonicMethod[] {
  return [
    method({
      name: 'star',
      needs: 'write',
      handle: async ({ actor, params }) => {
        await annotations.star(actor, starTargets(params));
        return {};
      },
    }),
    method({
      name: 'unstar',
      needs: 'write',
      handle: async ({ actor, params }) => {
        await annotations.unstar(actor, starTargets(params));
        return {};
      },
    }),
    method({
      name: 'setRating',
      needs: 'write',
      handle: async ({ actor, params }) => {
        const id = params.required('id');
        params.required('rating');
        await annotations.rate(actor, id, params.int('rating', 0, { min: 0, max: 5 }));
        return {};
      },
    }),
    method({
      name: 'scrobble',
      needs: 'write',
      handle: async ({ actor, params, client }) => {
        params.required('id');
        const ids = params.all('id');
        bounded(ids.length);
        const at = times(params);
        if (params.boolean('submission', true)) {
          await annotations.scrobble(actor, ids);
        } else {
          // a player plays one song at a time: the last one named is the one playing
          const last = ids.length - 1;
          await annotations.nowPlaying(actor, ids[last]!, client, at[last]);
        }
        return {};
      },
    }),
    method({
      name: 'getNowPlaying',
      needs: 'read',
      handle: async ({ actor }) => ({ nowPlaying: { entry: await annotations.playingNow(actor) } }),
    }),
    method({
      name: 'getStarred2',
      needs: 'read',
      handle: async ({ actor }) => ({ starred2: await annotations.starred(actor) }),
    }),
  ];
}
