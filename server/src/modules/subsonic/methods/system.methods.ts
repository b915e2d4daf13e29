import { method, type SubsonicMethod } from '../rest-methods.js';

/**
 * The OpenSubsonic extensions served, each with its versions. apiKeyAuthentication: `apiKey=` with a
 * Riff developer key; formPost: parameters in an x-www-form-urlencoded body; songLyrics and
 * transcodeOffset: getLyricsBySongId and stream's timeOffset, which the catalogue and stream steps serve.
 */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'songLyrics', versions: [1] },
  { name: 'transcodeOffset', versions: [1] },
] as const;

/** System: ping, getLicense, getOpenSubsonicExtensions, tokenInfo. */
export function systemMethods(): SubsonicMethod[] {
  return [
    // an empty subsonic-response: the credentials were good
    method({ name: 'ping', needs: 'read', handle: async () => ({}) }),
    // Riff has no licence to buy: always valid, so no app shows a trial banner
    method({ name: 'getLicense', needs: 'read', handle: async () => ({ license: { valid: true } }) }),
    // public, as OpenSubsonic requires: apps ask it before they know how to sign in
    method({
      name: 'getOpenSubsonicExtensions',
      needs: 'none',
      handle: async () => ({
        openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS.map((extension) => ({
          name: extension.name,
          versions: [...extension.versions],
        })),
      }),
    }),
    // whose credentials these are: an app signed in by API key learns its username here
    method({
      name: 'tokenInfo',
      needs: 'read',
      handle: async ({ actor }) => ({ tokenInfo: { username: actor.user.username } }),
    }),
  ];
}
