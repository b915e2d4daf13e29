import './subsonic.events.js';
import rootPackage from '../../../../package.json' with { type: 'json' };
import type { UserActor } from '../../platform/access/actor.js';
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import { TranscodeSlots } from '../../platform/media/live-transcode.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { MediaService } from '../media/media.service.js';
import type { PlaylistTracksService } from '../playlists/playlist-tracks.service.js';
import type { PlaylistsService } from '../playlists/playlists.service.js';
import type { QueueService } from '../queue/queue.service.js';
import type { PlaysService } from '../social/plays.service.js';
import type { RecommendationsService } from '../social/recommendations.service.js';
import type { SocialService } from '../social/social.service.js';
import type { TrackAudio } from '../tracks/track-audio.js';
import type { TrackSearchService } from '../tracks/track-search.service.js';
import type { TracksService } from '../tracks/tracks.service.js';
import type { FollowsService } from '../users/follows.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { ProfilesService } from '../users/profiles.service.js';
import { AppPasswordsRepository } from './app-passwords.repository.js';
import { appPasswordsRoutes } from './app-passwords.routes.js';
import { AppPasswordsService } from './app-passwords.service.js';
import { annotationMethods } from './methods/annotation.methods.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { infoMethods } from './methods/info.methods.js';
import { listMethods } from './methods/lists.methods.js';
import { playlistMethods } from './methods/playlists.methods.js';
import { queueMethods } from './methods/queue.methods.js';
import { searchingMethods } from './methods/searching.methods.js';
import { sharingMethods } from './methods/sharing.methods.js';
import { mediaMethods } from './methods/media.methods.js';
import { songMethods } from './methods/songs.methods.js';
import { streamMethods } from './methods/stream.methods.js';
import { systemMethods } from './methods/system.methods.js';
import { userMethods } from './methods/users.methods.js';
import { SubsonicAuthenticator } from './rest-auth.js';
import { SubsonicAlbumsRepository } from './subsonic-albums.repository.js';
import { SubsonicAnnotations } from './subsonic-annotations.js';
import { SubsonicAnnotationsRepository } from './subsonic-annotations.repository.js';
import { SubsonicCatalogue } from './subsonic-catalogue.js';
import { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import { SubsonicSongs } from './subsonic-songs.js';
import { QueueClientsRepository } from './queue-clients.repository.js';
import { MethodRegistry } from './rest-methods.js';
import { SubsonicRest } from './subsonic-rest.js';
import { subsonicRouter } from './subsonic.routes.js';

/** How long a transcode waits for a free slot before it is refused as "server busy". */
const TRANSCODE_WAIT_MS = 2_000;

export type SubsonicModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { appPasswords: AppPasswordsService; auth: SubsonicAuthenticator; rest: SubsonicRest };
};

/**
 * The Subsonic-compatible interface (/rest/, for player apps) and the app passwords its users sign
 * in with. It reads the catalogue, likes, plays, playlists, the queue and share links through the
 * other areas' ports, and changes likes, plays, follows, playlists, the queue and share links through
 * their services; its own tables are app_passwords, subsonic_queue_clients, subsonic_ratings (Riff
 * has no ratings) and subsonic_now_playing.
 */
export function createSubsonicModule(
  platform: Platform,
  deps: {
    /** The developer area's verifier of `riff_` keys (OpenSubsonic's apiKey). */
    apiKeys: ApiKeyVerifier;
    people: Pick<PeopleReader, 'lockAccount' | 'findActingByUsername' | 'blockedEitherWay' | 'names'>;
    /** The tracks area's search (search3's songs). */
    tracks: Pick<TrackSearchService, 'matchingIds'>;
    /** The tracks area's audio (stream, download). */
    audio: TrackAudio;
    /** The playlists area's services (getPlaylists … deletePlaylist). */
    playlists: Pick<PlaylistsService, 'library' | 'visibleTrackIds' | 'get' | 'create' | 'update' | 'remove'>;
    playlistTracks: Pick<PlaylistTracksService, 'add' | 'remove'>;
    /** The queue area's service (getPlayQueue, savePlayQueue). */
    queue: Pick<QueueService, 'get' | 'update' | 'clear'>;
    /** Track social's likes (star, unstar), shares and secret links (getShares, createShare, deleteShare). */
    social: Pick<SocialService, 'like' | 'unlike' | 'share' | 'revokeShare' | 'secretLinksOf'>;
    /** The tracks area's lyrics (getLyricsBySongId). */
    lyrics: Pick<TracksService, 'lyrics'>;
    /** The media area's covers and avatars, scaled for players (getCoverArt, getAvatar). */
    covers: Pick<MediaService, 'coverImage'>;
    avatars: Pick<AvatarsService, 'avatarImage'>;
    /** The users area's profiles as the caller may see them: avatars, biographies, artists by name. */
    profiles: Pick<ProfilesService, 'get' | 'getByUsername'>;
    /** The social area's similar tracks (getSimilarSongs2, getArtistInfo2's similar artists). */
    recommendations: Pick<RecommendationsService, 'similar'>;
    /** The social area's plays (scrobble). */
    plays: Pick<PlaysService, 'play'>;
    /** The users area's follows (star and unstar of an artist). */
    follows: Pick<FollowsService, 'follow' | 'unfollow'>;
  },
): SubsonicModule {
  const { scope, events, clock, keys, limits, keyLimits, logger, config } = platform;
  const appPasswords = new AppPasswordsService({
    scope,
    passwords: new AppPasswordsRepository(scope),
    box: keys.secretBox('app-password'),
    events,
    clock,
    people: deps.people,
  });
  const auth = new SubsonicAuthenticator({
    keys: deps.apiKeys,
    keyLimits,
    accounts: deps.people,
    passwords: appPasswords,
    failures: policyLimiter(limits, 'subsonic-sign-in'),
  });
  const catalogueRepository = new SubsonicCatalogueRepository(scope);
  const catalogue = new SubsonicCatalogue({
    repository: catalogueRepository,
    albums: new SubsonicAlbumsRepository(scope),
    names: (ids) => deps.people.names(ids),
    searchTracks: (actor, q, page) => deps.tracks.matchingIds(actor, q, page),
  });
  const annotationRows = new SubsonicAnnotationsRepository(scope);
  const annotations = new SubsonicAnnotations({
    catalogue,
    library: catalogueRepository,
    annotations: annotationRows,
    names: (ids) => deps.people.names(ids),
    social: deps.social,
    plays: deps.plays,
    follows: deps.follows,
    clock,
  });
  const stream = streamMethods({
    audio: deps.audio,
    blockedEitherWay: (a, b) => deps.people.blockedEitherWay(a, b),
    ffmpegPath: config.ffmpegPath,
    // one more waits this long for a slot (a player skipping ahead ends one transcode as it starts the next)
    slots: new TranscodeSlots(config.media.transcodeConcurrency, TRANSCODE_WAIT_MS),
    logger,
  });
  const songs = new SubsonicSongs({
    repository: catalogueRepository,
    names: (ids) => deps.people.names(ids),
    catalogue,
  });
  const queueClients = new QueueClientsRepository(scope);
  const transaction = <T>(work: () => Promise<T>) => scope.transaction(work);
  const similar = {
    catalogue,
    similarTracks: async (actor: UserActor, trackId: string, limit: number) =>
      (await deps.recommendations.similar(actor, trackId, limit)).tracks.map((track) => track.id),
  };
  const methods = new MethodRegistry([
    systemMethods(),
    browsingMethods(catalogue, (userId, ids) => annotationRows.ratingsOf(userId, ids)),
    listMethods(catalogue),
    songMethods({ ...similar, profiles: deps.profiles }),
    infoMethods({ ...similar, profiles: deps.profiles, publicBaseUrl: config.publicBaseUrl }),
    searchingMethods(catalogue),
    userMethods(),
    stream,
    playlistMethods({
      playlists: deps.playlists,
      tracks: deps.playlistTracks,
      songs,
      names: (ids) => deps.people.names(ids),
      transaction,
    }),
    queueMethods({ queue: deps.queue, songs, clients: queueClients, transaction, now: () => clock.now() }),
    sharingMethods({ social: deps.social, songs, now: () => clock.now() }),
    mediaMethods({
      catalogue,
      covers: deps.covers,
      avatars: deps.avatars,
      profiles: deps.profiles,
      blockedEitherWay: (a, b) => deps.people.blockedEitherWay(a, b),
      lyrics: deps.lyrics,
    }),
    annotationMethods(annotations),
  ]);
  const rest = new SubsonicRest({ methods, auth, serverVersion: rootPackage.version, logger });
  return {
    name: 'subsonic',
    services: { appPasswords, auth, rest },
    routes: { subsonic: appPasswordsRoutes(appPasswords) },
    routers: [subsonicRouter(rest)],
    // player apps and web players on any origin; credentials travel in the URL or the form, never in cookies
    openCorsPaths: ['/rest'],
    accountData: {
      export: async (owner) => {
        const saved = await queueClients.find(owner.id);
        return {
          ...(await appPasswords.exportFor(owner)),
          ...(await annotations.exportFor(owner)),
          // the app that last saved the play queue (getPlayQueue's changedBy)
          subsonic_play_queue: saved ? { client: saved.client, saved_at: saved.saved_at.toISOString() } : null,
        };
      },
      erase: async (owner) => ({
        ...(await appPasswords.eraseFor(owner)),
        ...(await annotations.eraseFor(owner)),
        removed_play_queue_clients: await queueClients.removeOfUser(owner.id),
      }),
    },
  };
}
