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
import type { RecommendationsService } from '../social/recommendations.service.js';
import type { TrackSearchService } from '../tracks/track-search.service.js';
import type { TrackAudio } from '../tracks/track-audio.js';
import type { TracksService } from '../tracks/tracks.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { ProfilesService } from '../users/profiles.service.js';
import { AppPasswordsRepository } from './app-passwords.repository.js';
import { appPasswordsRoutes } from './app-passwords.routes.js';
import { AppPasswordsService } from './app-passwords.service.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { infoMethods } from './methods/info.methods.js';
import { listMethods } from './methods/lists.methods.js';
import { mediaMethods } from './methods/media.methods.js';
import { searchingMethods } from './methods/searching.methods.js';
import { songMethods } from './methods/songs.methods.js';
import { streamMethods } from './methods/stream.methods.js';
import { systemMethods } from './methods/system.methods.js';
import { userMethods } from './methods/users.methods.js';
import { SubsonicAuthenticator } from './rest-auth.js';
import { SubsonicCatalogue } from './subsonic-catalogue.js';
import { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
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
 * in with. It reads the catalogue, likes, plays and playlists through the other areas' ports; its
 * own table is app_passwords.
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
    /** The tracks area's lyrics (getLyricsBySongId). */
    lyrics: Pick<TracksService, 'lyrics'>;
    /** The media area's covers and avatars, scaled for players (getCoverArt, getAvatar). */
    covers: Pick<MediaService, 'coverImage'>;
    avatars: Pick<AvatarsService, 'avatarImage'>;
    /** The users area's profiles as the caller may see them: avatars, biographies, artists by name. */
    profiles: Pick<ProfilesService, 'get' | 'getByUsername'>;
    /** The social area's similar tracks (getSimilarSongs2, getArtistInfo2's similar artists). */
    recommendations: Pick<RecommendationsService, 'similar'>;
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
  const catalogue = new SubsonicCatalogue({
    repository: new SubsonicCatalogueRepository(scope),
    names: (ids) => deps.people.names(ids),
    searchTracks: (actor, q, page) => deps.tracks.matchingIds(actor, q, page),
  });
  const stream = streamMethods({
    audio: deps.audio,
    blockedEitherWay: (a, b) => deps.people.blockedEitherWay(a, b),
    ffmpegPath: config.ffmpegPath,
    // one more waits this long for a slot (a player skipping ahead ends one transcode as it starts the next)
    slots: new TranscodeSlots(config.media.transcodeConcurrency, TRANSCODE_WAIT_MS),
    logger,
  });
  const similar = {
    catalogue,
    similarTracks: async (actor: UserActor, trackId: string, limit: number) =>
      (await deps.recommendations.similar(actor, trackId, limit)).tracks.map((track) => track.id),
  };
  const methods = new MethodRegistry([
    systemMethods(),
    browsingMethods(catalogue),
    listMethods(catalogue),
    songMethods({ ...similar, profiles: deps.profiles }),
    infoMethods({ ...similar, profiles: deps.profiles, publicBaseUrl: config.publicBaseUrl }),
    searchingMethods(catalogue),
    userMethods(),
    stream,
    mediaMethods({
      catalogue,
      covers: deps.covers,
      avatars: deps.avatars,
      profiles: deps.profiles,
      blockedEitherWay: (a, b) => deps.people.blockedEitherWay(a, b),
      lyrics: deps.lyrics,
    }),
  ]);
  const rest = new SubsonicRest({ methods, auth, serverVersion: rootPackage.version, logger });
  return {
    name: 'subsonic',
    services: { appPasswords, auth, rest },
    routes: { subsonic: appPasswordsRoutes(appPasswords) },
    routers: [subsonicRouter(rest)],
    accountData: {
      export: (owner) => appPasswords.exportFor(owner),
      erase: (owner) => appPasswords.eraseFor(owner),
    },
  };
}
