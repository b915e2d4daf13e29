import { notAuthorised } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import { MUSIC_FOLDER } from './browsing.methods.js';

/** User management: getUser, for the caller alone (Riff's accounts are not managed through Subsonic). */
export function userMethods(): SubsonicMethod[] {
  return [
    method({
      name: 'getUser',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const { username, email } = actor.user;
        // `username` is required by Subsonic; absent, the caller is meant (apps signed in by API key may not know it yet)
        const asked = params.get('username');
        if (asked !== undefined && asked !== '' && asked.toLowerCase() !== username.toLowerCase()) {
          throw notAuthorised('You may only read your own user');
        }
        // the roles say what this server does for the user: streaming, downloads, playlists, cover art,
        // sharing and scrobbling; not settings, uploads, comments, podcasts, jukebox or video, and not
        // Subsonic's user administration (none of those methods is served)
        return {
          user: {
            username,
            ...(email ? { email } : {}),
            scrobblingEnabled: true,
            adminRole: false,
            settingsRole: false,
            downloadRole: true,
            uploadRole: false,
            playlistRole: true,
            coverArtRole: true,
            commentRole: false,
            podcastRole: false,
            streamRole: true,
            jukeboxRole: false,
            shareRole: true,
            videoConversionRole: false,
            folder: [MUSIC_FOLDER.id],
          },
        };
      },
    }),
  ];
}
