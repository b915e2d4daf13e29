import { SUGGESTED_TAGS_MAX, type TagSource, type TrendingPeriod, type TrendingQuery } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import { forbidden } from '../../platform/errors/app-error.js';
import { compatibleKeys, parseKey } from './music-keys.js';
import type { RecommendationsRepository, Scored } from './recommendations.repository.js';
import { canSeeSuggestedTags } from './social.policy.js';
import type { SocialService } from './social.service.js';

/** Words of a title or album that say nothing about the music. */
const COMMON_WORDS = new Set(
  'the and for with from feat featuring remix edit mix version original radio extended live demo untitled track song you your our are was were not but this that'.split(
    ' ',
  ),
);
const TAG_MAX_LENGTH = 30;

const lower = (values: readonly (string | null | undefined)[]) => [
  ...new Set(values.filter((value): value is string => !!value).map((value) => value.toLowerCase())),
];
const genresOf = (track: TrackRow) => lower([...(track.genres ?? []), track.genre]);
const tagsOf = (track: TrackRow) => lower(track.tags ?? []);

const PERIOD_SECONDS: Record<TrendingPeriod, number> = { '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 };

const byRank = (a: Scored, b: Scored) =>
  b.score - a.score ||
  b.play_count - a.play_count ||
  new Date(b.created_at).getTime() - new Date(a.created_at).getTime() ||
  a.id.localeCompare(b.id);

/** Similar tracks, tracks for a user, suggested tags: the scoring the contract's descriptions document. */
export class RecommendationsService {
  constructor(
    private readonly deps: { recommendations: RecommendationsRepository; social: SocialService; clock: Clock },
  ) {}

  private get repo() {
    return this.deps.recommendations;
  }

  async similar(actor: Actor, trackId: string, limit: number) {
    const source = await this.deps.social.visibleTrack(actor, trackId);
    const key = parseKey(source.musical_key);
    const scored = (await this.repo.similar(source, genresOf(source), tagsOf(source), actor.id))
      // tempo and key refine a match (a shared genre, tag or co-like), they do not make one
      .map((row) => ({
        ...row,
        score: row.score + (row.bpm_close ? 2 : 0) + (compatibleKeys(key, parseKey(row.musical_key)) ? 2 : 0),
      }))
      .sort(byRank)
      .slice(0, limit);
    return { tracks: scored.map((row) => this.deps.social.dto(row, actor)) };
  }

  async forUser(actor: UserActor, limit: number) {
    const taste = await this.repo.taste(actor.id);
    const knowsSomething =
      taste.likedGenres.length + taste.likedTags.length + taste.playedGenres.length + taste.follows > 0;
    let rows = knowsSomething ? await this.repo.forUser(actor.id, taste, limit) : [];
    // a new user (or one whose taste matches nothing yet): what is trending
    if (rows.length === 0) rows = await this.repo.trending(actor.id, limit);
    return { tracks: rows.map((row) => this.deps.social.dto(row, actor)) };
  }

  /**
   * GET /social/trending: recent plays, likes, reposts and comments, decaying with a half-life of a
   * third of the period.
   */
  async trending(actor: Actor, query: TrendingQuery) {
    const now = this.deps.clock.now();
    const seconds = PERIOD_SECONDS[query.period];
    const window = { now, since: new Date(now.getTime() - seconds * 1000), halfLifeSeconds: seconds / 3 };
    const rows = await this.repo.trendingSince(
      actor.kind === 'user' ? actor.id : null,
      window,
      query.genre,
      query.limit,
    );
    return {
      tracks: rows.map((row) => ({
        track: this.deps.social.dto(row, actor),
        score: Math.round(row.score * 10_000) / 10_000,
      })),
    };
  }

  async suggestedTags(actor: UserActor, trackId: string) {
    const track = await this.deps.social.visibleTrack(actor, trackId);
    if (!canSeeSuggestedTags(actor, track)) throw forbidden('Only the owner gets tag suggestions for a track');
    const present = new Set(tagsOf(track));
    const best = new Map<string, { tag: string; score: number; source: TagSource }>();
    const offer = (tag: string, score: number, source: TagSource) => {
      const value = tag.trim().toLowerCase();
      if (!value || value.length > TAG_MAX_LENGTH || present.has(value)) return;
      const known = best.get(value);
      if (!known || known.score < score) best.set(value, { tag: value, score, source });
    };
    const genres = genresOf(track);
    for (const genre of genres) offer(genre, 1, 'genre');
    const words = `${track.title} ${track.album ?? ''}`.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    for (const word of words)
      if (word.length >= 3 && !COMMON_WORDS.has(word) && !/^\d+$/.test(word)) offer(word, 0.5, 'metadata');
    const similar = await this.repo.tagsOfSimilar(track.id, genres, tagsOf(track));
    for (const { tag, n } of similar) offer(tag, Math.min(0.9, Math.round(n * 3) / 10), 'similar');
    const tags = [...best.values()]
      .sort((a, b) => b.score - a.score || a.tag.localeCompare(b.tag))
      .slice(0, SUGGESTED_TAGS_MAX);
    return { tags };
  }
}
