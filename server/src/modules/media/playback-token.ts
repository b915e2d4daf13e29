import type { Clock } from '../../platform/clock.js';
import { AppError, unauthenticated } from '../../platform/errors/app-error.js';
import { TokenInvalidError, type KeyRef, type TokenSigner } from '../../platform/auth/token-signer.js';

/**
 * How long a playback token outlives the track's own duration: room for pauses, seeking back and
 * a slow network. A player paused longer than this loads the master playlist again.
 */
export const PLAYBACK_MARGIN_SECONDS = 30 * 60;
/** Never longer than this, whatever a track's duration says (a few hours' DJ set fits). */
export const PLAYBACK_MAX_SECONDS = 12 * 60 * 60;

/** What a playback token lets its holder read: the HLS of one track, as one run of the pipeline made it. */
export interface PlaybackGrant {
  userId: string;
  tokenVersion: number;
  trackId: string;
  /** The run of the media pipeline whose HLS the token was written into. */
  generation: string;
  /** The API key the stream token it was exchanged for was minted with: the playback token dies with that key. */
  key?: KeyRef;
}

/** Seconds a playback token of a track lasting `durationSeconds` is valid. */
export function playbackTtlSeconds(durationSeconds: number): number {
  const duration = Number.isFinite(durationSeconds) && durationSeconds > 0 ? Math.ceil(durationSeconds) : 0;
  return Math.min(PLAYBACK_MAX_SECONDS, duration + PLAYBACK_MARGIN_SECONDS);
}

/**
 * Playback tokens: what the playlists of a private track carry on their child URIs instead of
 * the 5-minute stream token they were opened with, so a long or paused track keeps playing. One
 * is good only for the child playlists and segments of that track's HLS of that run; no other
 * route accepts its audience, and it is never exchanged for a new one (a playlist read with it
 * carries it on unchanged), so it ends at its expiry. Its lifetime is measured on the service's
 * clock.
 */
export class PlaybackTokens {
  constructor(private readonly deps: { signer: TokenSigner; clock: Clock }) {}

  issue(
    user: { id: string; token_version: number },
    track: { id: string; duration: number },
    generation: string,
    key?: KeyRef,
  ): Promise<string> {
    return this.deps.signer.sign(
      {
        sub: user.id,
        tv: user.token_version,
        grant: { purpose: 'playback', track: track.id, generation },
        ...(key ? { key } : {}),
      },
      'playback',
      playbackTtlSeconds(track.duration),
      { now: this.deps.clock.now() },
    );
  }

  /** The grant of a valid playback token; 401 TOKEN_EXPIRED once expired, 401 UNAUTHENTICATED for anything else. */
  async read(token: string): Promise<PlaybackGrant> {
    try {
      const claims = await this.deps.signer.verify(token, 'playback', { now: this.deps.clock.now() });
      const { purpose, track, generation } = claims.grant ?? {};
      if (purpose !== 'playback' || !track || !generation) throw new TokenInvalidError(false);
      return {
        userId: claims.sub,
        tokenVersion: claims.tv,
        trackId: track,
        generation,
        ...(claims.key ? { key: claims.key } : {}),
      };
    } catch (error) {
      if (!(error instanceof TokenInvalidError)) throw error;
      if (error.expired)
        throw new AppError('TOKEN_EXPIRED', 'The playback token has expired: load the master playlist again');
      throw unauthenticated('The playback token is not valid');
    }
  }
}
