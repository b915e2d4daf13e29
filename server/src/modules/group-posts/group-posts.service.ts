import type { CreateGroupPostRequest, GroupPost, GroupPostQuery, Playlist, Track } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { withinLimit } from '../../platform/rate-limit/within-limit.js';
import { removedContent } from '../../platform/access/moderation.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { badRequest, forbidden, invalidField, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { GroupCounters } from '../groups/group-counters.js';
import type { GroupAccess, GroupReader } from '../groups/group-reader.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { toGroupPostDto } from './group-posts.mapper.js';
import {
  canEditPost,
  canPin,
  canPost,
  canReadPosts,
  canSeePost,
  deletionRole,
  postsUnseenSql,
} from './group-posts.policy.js';
import type { GroupPostRow, GroupPostsRepository } from './group-posts.repository.js';

export interface GroupPostsServiceDeps {
  scope: DbScope;
  posts: GroupPostsRepository;
  /** The groups area's read port: who reaches the group, and the caller's role in it. */
  groups: GroupReader;
  /** The groups area's counters: a group's post_count follows its top-level posts. */
  groupCounters: GroupCounters;
  /** The tracks area's read port: a referenced track as each reader may see it. */
  tracks: Pick<TrackReader, 'visibleTracks'>;
  /** The playlists area's read port: a referenced playlist as each reader may see it. */
  playlists: (actor: Actor, ids: readonly string[]) => Promise<Map<string, Playlist>>;
  /** The users area's read port: blocks, and the authors' names. */
  people: Pick<PeopleReader, 'blockedEitherWayWith' | 'names'>;
  events: EventBus;
  clock: Clock;
  /** Posts (replies included) per member per group per hour. */
  created: Limiter;
}

/** The posts of a group: who reads, writes, pins and deletes them, and what each reader sees. */
export class GroupPostsService {
  constructor(private readonly deps: GroupPostsServiceDeps) {}

  private get posts() {
    return this.deps.posts;
  }

  /** The group as the caller reaches it (else 404), and whether they may read its posts (else 403). */
  private async readableGroup(actor: Actor, groupId: string): Promise<GroupAccess> {
    const group = await this.deps.groups.readable(actor, groupId);
    if (!group) throw notFound('Group');
    if (!canReadPosts(actor, group)) throw forbidden('Only members read the posts of a private group');
    return group;
  }

  /** Whom the reader does not see: those they blocked or who blocked them. */
  private async hiddenAuthors(actor: Actor): Promise<string[]> {
    return actor.kind === 'user' ? this.deps.people.blockedEitherWayWith(actor.id) : [];
  }

  /** A post of this group the reader sees (not moderated away from them, not by someone blocked either way). */
  private async visiblePost(actor: Actor, group: GroupAccess, postId: string): Promise<GroupPostRow> {
    const post = await this.posts.find(postId);
    if (!post || post.group_id !== group.id || !canSeePost(actor, post)) throw notFound('Post');
    if ((await this.hiddenAuthors(actor)).includes(post.author_id)) throw notFound('Post');
    return post;
  }

  /** The posts as this reader sees them: authors, tracks and playlists each read once for the page. */
  private async dtos(actor: Actor, rows: readonly GroupPostRow[]): Promise<GroupPost[]> {
    const trackIds = [...new Set(rows.flatMap((row) => (row.track_id ? [row.track_id] : [])))];
    const playlistIds = [...new Set(rows.flatMap((row) => (row.playlist_id ? [row.playlist_id] : [])))];
    const [authors, tracks, playlists] = await Promise.all([
      this.deps.people.names([...new Set(rows.map((row) => row.author_id))]),
      trackIds.length > 0 ? this.deps.tracks.visibleTracks(actor, trackIds) : new Map<string, Track>(),
      playlistIds.length > 0 ? this.deps.playlists(actor, playlistIds) : new Map<string, Playlist>(),
    ]);
    return rows.map((row) => toGroupPostDto(row, { authors, tracks, playlists }));
  }

  private async dto(actor: Actor, row: GroupPostRow): Promise<GroupPost> {
    return (await this.dtos(actor, [row]))[0]!;
  }

  async list(actor: Actor, groupId: string, query: GroupPostQuery) {
    const group = await this.readableGroup(actor, groupId);
    const unseen = postsUnseenSql(actor, await this.hiddenAuthors(actor));
    const window = pageWindow(query.page, query.limit);
    const total = await this.posts.topLevelCount(group.id, group.post_count, unseen);
    const rows = window.offset < total ? await this.posts.topLevelPage(group.id, window, unseen) : [];
    return { posts: await this.dtos(actor, rows), pagination: paginate(window, total) };
  }

  async get(actor: Actor, groupId: string, postId: string) {
    const group = await this.readableGroup(actor, groupId);
    return { post: await this.dto(actor, await this.visiblePost(actor, group, postId)) };
  }

  async replies(actor: Actor, groupId: string, postId: string, query: GroupPostQuery) {
    const group = await this.readableGroup(actor, groupId);
    const post = await this.visiblePost(actor, group, postId);
    const window = pageWindow(query.page, query.limit);
    // one level: a reply has no replies of its own
    if (post.parent_id !== null) return { replies: [], pagination: paginate(window, 0) };
    const unseen = postsUnseenSql(actor, await this.hiddenAuthors(actor));
    const total = await this.posts.replyCount(post.id, post.reply_count, unseen);
    const rows = window.offset < total ? await this.posts.repliesPage(post.id, window, unseen) : [];
    return { replies: await this.dtos(actor, rows), pagination: paginate(window, total) };
  }

  /**
   * At most GROUP_POSTS_PER_HOUR per member per group. The point is taken first (so concurrent
   * requests cannot all pass) and given back when the post is refused for any reason, the limit included.
   */
  async create(actor: UserActor, groupId: string, body: CreateGroupPostRequest) {
    const group = await this.readableGroup(actor, groupId);
    if (!canPost(group)) throw forbidden('Only members post in this group');
    return withinLimit(
      this.deps.created,
      `${group.id}:${actor.id}`,
      (limit) => `At most ${limit} posts an hour in one group: try again later`,
      () => this.insert(actor, group, body),
    );
  }

  private async insert(actor: UserActor, group: GroupAccess, body: CreateGroupPostRequest) {
    // a reference must be something the poster may see: anything else is, for them, nothing at all
    if (body.track_id && !(await this.deps.tracks.visibleTracks(actor, [body.track_id])).has(body.track_id))
      throw notFound('Track');
    if (body.playlist_id && !(await this.deps.playlists(actor, [body.playlist_id])).has(body.playlist_id))
      throw notFound('Playlist');
    return this.deps.scope.transaction(async () => {
      const parentId = body.parent_id === undefined ? null : await this.topLevelParent(actor, group, body.parent_id);
      const id = await this.posts.insert({
        group_id: group.id,
        author_id: actor.id,
        parent_id: parentId,
        content: body.content,
        track_id: body.track_id ?? null,
        playlist_id: body.playlist_id ?? null,
      });
      if (parentId) await this.posts.addReplies(parentId, 1);
      else await this.deps.groupCounters.addPosts(group.id, 1);
      await this.deps.events.record(actor, 'group.post_created', {
        subject: { resource: 'group_post', id },
        data: {
          group_id: group.id,
          owner_id: group.owner_id,
          parent_id: parentId,
          track_id: body.track_id ?? null,
          playlist_id: body.playlist_id ?? null,
        },
      });
      return { post: await this.dto(actor, await this.found(id)) };
    });
  }

  /**
   * The top-level post a reply attaches to, locked until the reply is counted: a reply to a reply goes
   * to its parent. A post the poster does not see (moderated, or by someone blocked either way) is,
   * for them, no post at all.
   */
  private async topLevelParent(actor: UserActor, group: GroupAccess, parentId: string): Promise<string> {
    const named = await this.posts.lock(parentId);
    const parent = named?.parent_id ? await this.posts.lock(named.parent_id) : named;
    const hidden = await this.hiddenAuthors(actor);
    const sees = (post: GroupPostRow) => canSeePost(actor, post) && !hidden.includes(post.author_id);
    if (!named || !parent || parent.group_id !== group.id || !sees(named) || !sees(parent))
      throw invalidField('parent_id', 'must be a post of this group', parentId);
    return parent.id;
  }

  private async found(id: string): Promise<GroupPostRow> {
    const row = await this.posts.find(id);
    if (!row) throw notFound('Post');
    return row;
  }

  async update(actor: UserActor, groupId: string, postId: string, content: string) {
    const group = await this.readableGroup(actor, groupId);
    const post = await this.visiblePost(actor, group, postId);
    if (!canEditPost(actor, post)) throw forbidden('Only its author can edit a post');
    if (post.moderation_status === 'removed') throw removedContent();
    // saving the same words again is not an edit
    if (post.content === content) return { post: await this.dto(actor, post) };
    return this.deps.scope.transaction(async () => {
      if (!(await this.posts.lock(post.id))) throw notFound('Post');
      await this.posts.updateContent(post.id, content, this.deps.clock.now());
      await this.deps.events.record(actor, 'group.post_updated', {
        subject: { resource: 'group_post', id: post.id },
        data: { group_id: group.id },
      });
      return { post: await this.dto(actor, await this.found(post.id)) };
    });
  }

  async remove(actor: UserActor, groupId: string, postId: string) {
    const group = await this.readableGroup(actor, groupId);
    const post = await this.visiblePost(actor, group, postId);
    const role = deletionRole(actor, post, group);
    if (!role) throw forbidden('Only its author, the group’s moderators or staff can delete a post');
    await this.deps.scope.transaction(async () => {
      const locked = await this.posts.lock(post.id);
      if (!locked) throw notFound('Post');
      const replies = await this.deleteLocked(locked);
      await this.deps.events.record(actor, 'group.post_deleted', {
        subject: { resource: 'group_post', id: post.id },
        data: { group_id: group.id, parent_id: post.parent_id, replies, role },
      });
    });
    return { message: 'Post deleted' };
  }

  /** Deletes a post the unit of work holds, and keeps the counts: the replies that went with it. */
  private async deleteLocked(post: GroupPostRow): Promise<number> {
    if (post.parent_id !== null) {
      const parent = await this.posts.lock(post.parent_id);
      await this.posts.remove(post.id);
      if (parent) await this.posts.addReplies(parent.id, -1);
      return 0;
    }
    const replies = await this.posts.remove(post.id);
    await this.deps.groupCounters.addPosts(post.group_id, -1);
    return replies;
  }

  async setPinned(actor: UserActor, groupId: string, postId: string, pinned: boolean) {
    const group = await this.readableGroup(actor, groupId);
    const post = await this.visiblePost(actor, group, postId);
    if (!canPin(group)) throw forbidden('Only the group’s moderators, admins and owner pin posts');
    if (post.parent_id !== null) throw badRequest('Only top-level posts are pinned, not replies');
    if (post.is_pinned === pinned) return { post: await this.dto(actor, post) };
    return this.deps.scope.transaction(async () => {
      if (!(await this.posts.lock(post.id))) throw notFound('Post');
      await this.posts.setPinned(post.id, pinned ? this.deps.clock.now() : null);
      await this.deps.events.record(actor, 'group.post_pinned', {
        subject: { resource: 'group_post', id: post.id },
        data: { group_id: group.id, pinned },
      });
      return { post: await this.dto(actor, await this.found(post.id)) };
    });
  }

  /** One live post as the actor reads it (webhooks, notifications), or undefined where they may not. */
  async postFor(actor: Actor, id: string): Promise<GroupPost | undefined> {
    const post = await this.posts.find(id);
    if (!post || !canSeePost(actor, post)) return undefined;
    if ((await this.hiddenAuthors(actor)).includes(post.author_id)) return undefined;
    const group = await this.deps.groups.readable(actor, post.group_id);
    if (!group || !canReadPosts(actor, group)) return undefined;
    return this.dto(actor, post);
  }

  /** The author's posts and replies, for their data export. */
  async exportFor(owner: UserActor) {
    const rows = await this.posts.allOf(owner.id);
    return {
      group_posts: rows.map((row) => ({
        id: row.id,
        group_id: row.group_id,
        parent_id: row.parent_id,
        content: row.content,
        track_id: row.track_id,
        playlist_id: row.playlist_id,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      })),
    };
  }

  /**
   * Account deletion: each of the user's posts is deleted as its author would delete it (a top-level
   * post goes with its replies), in the deletion's unit of work.
   */
  async eraseFor(owner: UserActor) {
    return this.deps.scope.transaction(async () => {
      let removed = 0;
      for (const id of await this.posts.idsOf(owner.id)) {
        const post = await this.posts.lock(id);
        if (!post) continue;
        await this.deleteLocked(post);
        removed++;
      }
      return { removed_group_posts: removed };
    });
  }
}
