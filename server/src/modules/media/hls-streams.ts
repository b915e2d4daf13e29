import { userActor, type Actor } from '../../platform/access/actor.js';
import type { KeyRef } from '../../platform/auth/token-signer.js';
import type { UserRow } from '../users/users.tables.js';
import { AppError, notFound, unauthenticated } from '../../platform/errors/app-error.js';
import { canSeeTrackMedia } from './media.policy.js';
import type { TrackStreamState } from '../tracks/track-stream-state.js';
import type { MediaRepository, MediaTrack } from './media.repository.js';
import type { PlaybackTokens } from './playback-token.js';

/** What a request for an HLS file presented besides its authentication. */
export interface HlsAccess {
  /** The track's secret link. */
  secret?: string | undefined;
  /** A playback token (child playlists and segments only). */
  playback?: string | undefined;
  /** The generation the URI was written for (`v`), when it names one. */
  generation?: string | undefined;
}

/** A published HLS file the caller may read. */
export interface HlsFile {
  key: string;
  track: MediaTrack;
  /**
   * The run of the pipeline that made the HLS being served. It changes with every new audio, so
   * URIs that carry it never reach the files of another audio (nor a cache's copy of them).
   */
  generation: string;
}

export interface HlsStreamsDeps {
  media: MediaRepository;
  /** The tracks area's: who may read the track's media, and its stream's state. */
  tracks: Pick<TrackStreamState, 'find'>;
  tokens: PlaybackTokens;
  /** The user behind a token, if they may still act (exists, active, verified, not banned). */
  activeUser(id: string): Promise<UserRow | undefined>;
  /** Whether the API key a token was minted with is still live (not revoked, not expired). */
  keyIsLive(key: KeyRef): Promise<boolean>;
}

const notReady = () =>
  new AppError('MEDIA_NOT_READY', 'The stream is not ready yet', { headers: { 'Retry-After': '5' } });
const replaced = () =>
  new AppError('NOT_FOUND', 'This stream has been replaced by a new audio: load the master playlist again');

/** Who may read a track's HLS, which files are served, and what the URIs of its playlists carry. */
export class HlsStreams {
  constructor(private readonly deps: HlsStreamsDeps) {}

  /**
   * The storage key of `name` (master.m3u8 or `<variant>/<file>`) in the track's published HLS.
   * Only HLS that the current audio's run published is served: while a new audio is processed the
   * track answers MEDIA_NOT_READY, as before its first run, and a URI written for an earlier run
   * (its `v`, or its playback token) is 404.
   */
  async open(actor: Actor, trackId: string, name: string, access: HlsAccess = {}): Promise<HlsFile> {
    const holder =
      access.playback === undefined ? undefined : await this.playbackHolder(access.playback, trackId, actor);
    const viewer = holder?.actor ?? actor;
    // visibility is read on every request: a track made private or deleted stops at once
    const track = await this.deps.tracks.find(trackId);
    if (!track || !canSeeTrackMedia(viewer, track, access.secret)) throw notFound('Track');
    // one read of the pipeline's row: its run and published prefix belong together
    const media = await this.deps.media.media(trackId);
    if (track.stream_status !== 'ready' || media?.hls_state !== 'ready' || !media.hls_prefix) throw notReady();
    const generation = media.run_id;
    if (access.generation !== undefined && access.generation !== generation) throw replaced();
    if (holder && holder.generation !== generation) throw replaced();
    return { key: `${media.hls_prefix}${name}`, track, generation };
  }

  /**
   * The query every URI of a playlist of `file` carries: its generation always; on a private
   * track the credential a plain HLS player needs for the next request. A stream token (5
   * minutes) is exchanged for a playback token that lasts the track's duration and a margin; a
   * playback token is carried on as it is (never renewed); a secret link is carried on.
   */
  async childQuery(actor: Actor, file: HlsFile, access: HlsAccess): Promise<Record<string, string>> {
    const query: Record<string, string> = { v: file.generation };
    if (file.track.is_public) return query;
    if (actor.kind === 'user' && actor.via === 'stream_token') {
      // a stream token minted with a key hands the key on: the playback token dies with it too
      query['playback'] = await this.deps.tokens.issue(actor.user, file.track, file.generation, actor.key);
    } else if (access.playback !== undefined) {
      query['playback'] = access.playback;
    }
    if (access.secret !== undefined) query['secret'] = access.secret;
    return query;
  }

  /**
   * The user a playback token speaks for, as revocable as the stream token it came from (the
   * user's tokens revoked, or the key that minted it revoked or expired): 401 when it is not good
   * for this track.
   */
  private async playbackHolder(
    token: string,
    trackId: string,
    actor: Actor,
  ): Promise<{ actor: Actor; generation: string }> {
    const grant = await this.deps.tokens.read(token);
    if (grant.trackId !== trackId) throw unauthenticated('The playback token is not valid for this track');
    const user = await this.deps.activeUser(grant.userId);
    if (!user || user.token_version !== grant.tokenVersion || (grant.key && !(await this.deps.keyIsLive(grant.key))))
      throw unauthenticated('This token is no longer valid');
    return {
      actor: userActor(user, 'playback_token', actor.origin, undefined, grant.key),
      generation: grant.generation,
    };
  }
}
