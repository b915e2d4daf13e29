import { createHmac, randomBytes } from 'node:crypto';
import type { PaginationQuery, ShareRequest, Track } from '@riff/contract';
import { API_PREFIX } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { badRequest, forbidden, notFound, rateLimited, unauthenticated } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { FavoritesService } from '../playlists/favorites.service.js';
import { toTrackDto } from '../tracks/track.mapper.js';
import type { TrackReader } from '../tracks/track-reader.js';
import { hashTrackSecret, type TrackSecretLinks } from '../tracks/track-secret.js';
import { canReadTrack } from '../tracks/tracks.policy.js';
import type { PeopleReader } from '../users/people-reader.js';
import { canRepost, canRevokeSecret, canSeeTrackAudience, canShareSecretly } from './social.policy.js';
import type { SocialRepository } from './social.repository.js';

export interface SocialServiceDeps {
  scope: DbScope;
  social: SocialRepository;
  favorites: FavoritesService;
  /** The tracks area's read port: live tracks' rows, to which the track rules apply. */
  tracks: Pick<TrackReader, 'findLive' | 'findLiveMany'>;
  /** The users area's read port: who may be seen, who blocks whom, profiles as the caller sees them. */
  people: Pick<PeopleReader, 'findActive' | 'blockedEitherWay' | 'profiles'>;
  /** The tracks area keeps a private track's secret link; sharing makes it, revoking clears it. */
  secretLinks: TrackSecretLinks;
  events: EventBus;
  shares: Limiter;
  /** Derives a private track's secret link from its stored nonce (so sharing again gives the same link). */
  secretKey: Buffer;
  /** Hashes a caller's address (never stored or keyed raw). */
  addressKey: Buffer;
  publicBaseUrl: string;
}

/** A user id, or `me`. */
type UserIdOrMe = string;

/** Likes (through the favorites playlist), reposts, the feed, shares and secret links. */
export class SocialService {
  constructor(private readonly deps: SocialServiceDeps) {}

  private get repo() {
    return this.deps.social;
  }

  dto(row: TrackRow, actor: Actor): Track {
    return toTrackDto(row, actor, this.deps.publicBaseUrl);
  }

  /** A live track the actor may see; otherwise 404. */
  async visibleTrack(actor: Actor, id: string, secret?: string): Promise<TrackRow> {
    const track = await this.deps.tracks.findLive(id);
    if (!track || !canReadTrack(actor, track, secret)) throw notFound('Track');
    return track;
  }

  /** Whether either user blocks the other; nobody blocks themselves (no query then). */
  private async blocked(a: string, b: string): Promise<boolean> {
    return a !== b && this.deps.people.blockedEitherWay(a, b);
  }

  private async notBlocked(actor: UserActor, track: TrackRow): Promise<void> {
    if (await this.blocked(actor.id, track.creator_id)) throw forbidden('You cannot interact with this user’s tracks');
  }

  private resolveUser(actor: Actor, idOrMe: UserIdOrMe): string {
    if (idOrMe !== 'me') return idOrMe;
    if (actor.kind !== 'user') throw unauthenticated('Log in to use "me"');
    return actor.id;
  }

  // ---- likes

  async like(actor: UserActor, trackId: string) {
    const track = await this.visibleTrack(actor, trackId);
    await this.notBlocked(actor, track);
    await this.deps.favorites.like(actor, track.id);
    return { liked: true };
  }

  /** Also for a track the caller liked and can no longer see (made private since): a like must be removable. */
  async unlike(actor: UserActor, trackId: string) {
    const track = await this.deps.tracks.findLive(trackId);
    if (!track || (!canReadTrack(actor, track) && !(await this.deps.favorites.isLiked(actor.id, trackId))))
      throw notFound('Track');
    await this.deps.favorites.unlike(actor, trackId);
    return { liked: false };
  }

  async likers(actor: UserActor, trackId: string, query: PaginationQuery) {
    const track = await this.visibleTrack(actor, trackId);
    if (!canSeeTrackAudience(actor, track)) throw forbidden('Only the owner sees who liked a track');
    const window = pageWindow(query.page, query.limit);
    const { ids, total } = await this.repo.likers(track.id, window);
    const profiles = await this.deps.people.profiles(ids, actor);
    return { users: ids.flatMap((id) => profiles.get(id) ?? []), pagination: paginate(window, total) };
  }

  async userLikes(actor: Actor, idOrMe: UserIdOrMe, query: PaginationQuery) {
    const userId = await this.visibleUser(actor, idOrMe);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.repo.likedTracks(userId, actor, window);
    return { tracks: rows.map((row) => this.dto(row, actor)), pagination: paginate(window, total) };
  }

  private async visibleUser(actor: Actor, idOrMe: UserIdOrMe): Promise<string> {
    const userId = this.resolveUser(actor, idOrMe);
    // others' accounts only while active (as GET /users/{id}); a user always finds their own, an admin only active ones
    const own = !actor.isAdmin && actor.id === userId;
    if (!own && !(await this.deps.people.findActive(userId))) throw notFound('User');
    if (actor.kind === 'user' && !actor.isAdmin && (await this.blocked(actor.id, userId))) throw notFound('User');
    return userId;
  }

  // ---- reposts and the feed

  async repost(actor: UserActor, trackId: string) {
    const track = await this.visibleTrack(actor, trackId);
    if (!canRepost(actor, track)) {
      throw badRequest(track.is_public ? 'You cannot repost your own track' : 'Only public tracks can be reposted');
    }
    await this.notBlocked(actor, track);
    await this.deps.scope.transaction(async () => {
      if (await this.repo.repost(actor.id, track.id)) {
        await this.deps.events.record(actor, 'track.reposted', {
          subject: { resource: 'track', id: track.id },
          data: { creator_id: track.creator_id },
        });
      }
    });
    return { reposted: true };
  }

  async unrepost(actor: UserActor, trackId: string) {
    const track = await this.deps.tracks.findLive(trackId);
    if (!track) throw notFound('Track');
    const removed = await this.deps.scope.transaction(async () => {
      const done = await this.repo.unrepost(actor.id, track.id);
      if (done)
        await this.deps.events.record(actor, 'track.unreposted', {
          subject: { resource: 'track', id: track.id },
          data: {},
        });
      return done;
    });
    if (!removed && !canReadTrack(actor, track)) throw notFound('Track');
    return { reposted: false };
  }

  async userReposts(actor: Actor, idOrMe: UserIdOrMe, query: PaginationQuery) {
    const userId = await this.visibleUser(actor, idOrMe);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.repo.repostedTracks(userId, actor, window);
    return { tracks: rows.map((row) => this.dto(row, actor)), pagination: paginate(window, total) };
  }

  async feed(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.repo.feed(actor.id, window);
    const tracks = new Map(
      (await this.deps.tracks.findLiveMany([...new Set(rows.map((row) => row.track_id))])).map((row) => [row.id, row]),
    );
    const users = await this.deps.people.profiles(
      rows.map((row) => row.actor_id),
      actor,
    );
    const items = rows.flatMap((row) => {
      const track = tracks.get(row.track_id);
      const user = users.get(row.actor_id);
      if (!track || !user) return [];
      return [
        {
          type: row.type,
          track: this.dto(track, actor),
          actor: user,
          created_at: new Date(row.at).toISOString(),
        },
      ];
    });
    return { items, pagination: paginate(window, total) };
  }

  // ---- shares and the secret link

  private secretFor(trackId: string, nonce: string): string {
    return createHmac('sha256', this.deps.secretKey).update(`${trackId}:${nonce}`).digest('base64url');
  }

  /** A private track's secret link: its public address with the secret derived from the nonce. */
  private secretUrl(trackId: string, nonce: string): string {
    return `${this.deps.publicBaseUrl}${API_PREFIX}/tracks/${trackId}?secret=${this.secretFor(trackId, nonce)}`;
  }

  /**
   * The caller's secret links that work now (their live private tracks that have one), newest
   * track first, with when they last shared each (the link stays the same until it is revoked).
   */
  async secretLinksOf(owner: UserActor): Promise<{ track_id: string; share_url: string; shared_at: Date }[]> {
    const links = await this.deps.secretLinks.liveOf(owner.id);
    const shared = await this.repo.lastSharedBy(
      owner.id,
      links.map((link) => link.trackId),
    );
    return links.map((link) => ({
      track_id: link.trackId,
      share_url: this.secretUrl(link.trackId, link.nonce),
      shared_at: shared.get(link.trackId) ?? link.updatedAt,
    }));
  }

  async share(actor: Actor, trackId: string, body: ShareRequest) {
    const track = await this.visibleTrack(actor, trackId);
    const secretLink = !track.is_public;
    if (secretLink && !canShareSecretly(actor, track)) throw forbidden('Only the owner can share a private track');
    const key =
      actor.kind === 'user'
        ? `u:${actor.id}`
        : `a:${createHmac('sha256', this.deps.addressKey)
            .update(actor.origin.ip ?? '')
            .digest('base64url')}`;
    const limit = await this.deps.shares.consume(key);
    if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'Too many shares; try again in a minute');
    const url = `${this.deps.publicBaseUrl}${API_PREFIX}/tracks/${track.id}`;
    return this.deps.scope.transaction(async () => {
      await this.repo.recordShare(track.id, actor.id, body.platform);
      let shareUrl = url;
      if (secretLink) {
        const fresh = randomBytes(16).toString('base64url');
        const nonce = await this.deps.secretLinks.secretNonce(track.id, {
          nonce: fresh,
          hash: (value) => hashTrackSecret(this.secretFor(track.id, value)),
        });
        shareUrl = this.secretUrl(track.id, nonce);
      }
      await this.deps.events.record(actor, 'track.shared', {
        subject: { resource: 'track', id: track.id },
        data: { platform: body.platform, secret_link: secretLink },
      });
      return { share_url: shareUrl };
    });
  }

  async revokeShare(actor: UserActor, trackId: string) {
    const track = await this.visibleTrack(actor, trackId);
    if (!canRevokeSecret(actor, track)) throw forbidden('Only the owner can revoke a track’s secret link');
    await this.deps.scope.transaction(async () => {
      // the event also makes the tracks module forget its cached row, so streaming stops at once
      if (await this.deps.secretLinks.revokeSecret(track.id))
        await this.deps.events.record(actor, 'track.share_revoked', {
          subject: { resource: 'track', id: track.id },
          data: {},
        });
    });
    return { message: 'The secret link no longer works' };
  }

  // ---- account data

  async exportFor(owner: UserActor) {
    const iso = (date: Date) => date.toISOString();
    return {
      likes: (await this.repo.likesOf(owner.id)).map((row) => ({
        track_id: row.track_id,
        liked_at: iso(row.liked_at),
      })),
      reposts: (await this.repo.repostsOf(owner.id)).map((row) => ({
        track_id: row.track_id,
        reposted_at: iso(row.reposted_at),
      })),
      shares: (await this.repo.sharesOf(owner.id)).map((row) => ({
        track_id: row.track_id,
        platform: row.platform,
        shared_at: iso(row.shared_at),
      })),
    };
  }

  async eraseFor(owner: UserActor) {
    const { reposts } = await this.repo.eraseFor(owner.id);
    return { removed_reposts: reposts };
  }
}
