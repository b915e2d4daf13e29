import type { Comment, CreateCommentRequest, ListCommentsQuery, ListRepliesQuery } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { withinLimit } from '../../platform/rate-limit/within-limit.js';
import { removedContent } from '../../platform/access/moderation.js';
import { forbidden, invalidField, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { toCommentDto } from './comments.mapper.js';
import {
  canDeleteComment,
  canEditComment,
  canSeeComment,
  canSeeComments,
  commentsUnseenSql,
  deletionRole,
  type CommentedTrack,
} from './comments.policy.js';
import type { CommentRow, CommentsRepository } from './comments.repository.js';

export interface CommentsServiceDeps {
  scope: DbScope;
  comments: CommentsRepository;
  /** The tracks area's read port: the track commented on, and its row held while a comment is added. */
  tracks: Pick<TrackReader, 'findLive' | 'holdLive'>;
  /** The users area's read port: blocks, and the authors' names. */
  people: Pick<PeopleReader, 'blocks' | 'blockedEitherWayWith' | 'names'>;
  events: EventBus;
  clock: Clock;
  /** Comments created per user per minute. */
  created: Limiter;
}

/** Timestamped comments with one level of replies: who may write, edit and delete them, and what readers see. */
export class CommentsService {
  constructor(private readonly deps: CommentsServiceDeps) {}

  private get comments() {
    return this.deps.comments;
  }

  /** A live track the actor may see; anything else is 404, as if it did not exist. */
  private async visibleTrack(actor: Actor, id: string): Promise<CommentedTrack> {
    const track = await this.deps.tracks.findLive(id);
    if (!track || !canSeeComments(actor, track)) throw notFound('Track');
    return track;
  }

  /** A comment (not deleted) on a track the actor may see. */
  private async visibleComment(actor: Actor, id: string, options: { deleted: boolean }) {
    const readable = await this.readable(actor, id, options);
    if (!readable) throw notFound('Comment');
    return readable;
  }

  private async readable(
    actor: Actor,
    id: string,
    options: { deleted: boolean },
  ): Promise<{ comment: CommentRow; track: CommentedTrack } | undefined> {
    const comment = await this.comments.find(id);
    if (!comment || (comment.deleted_at !== null && !options.deleted) || !canSeeComment(actor, comment))
      return undefined;
    const track = await this.deps.tracks.findLive(comment.track_id);
    return track && canSeeComments(actor, track) ? { comment, track } : undefined;
  }

  /** One live comment as the actor reads it (webhooks' comment.created), or undefined where they may not. */
  async commentFor(actor: Actor, id: string): Promise<Comment | undefined> {
    const readable = await this.readable(actor, id, { deleted: false });
    return readable && (await this.dto(readable.comment));
  }

  /** The comments as readers see them, their authors named in one read. */
  private async dtos(rows: readonly CommentRow[]): Promise<Comment[]> {
    const authorIds = rows.flatMap((row) => (row.user_id && row.deleted_at === null ? [row.user_id] : []));
    const authors = await this.deps.people.names(authorIds);
    return rows.map((row) => toCommentDto(row, authors));
  }

  private async dto(row: CommentRow): Promise<Comment> {
    return (await this.dtos([row]))[0]!;
  }

  /** The comments the viewer does not see: by those they blocked or who blocked them, or moderated. */
  private async unseenBy(actor: Actor) {
    const blocked = actor.kind === 'user' ? await this.deps.people.blockedEitherWayWith(actor.id) : [];
    return commentsUnseenSql(actor, blocked);
  }

  async list(actor: Actor, trackId: string, query: ListCommentsQuery) {
    const track = await this.visibleTrack(actor, trackId);
    const unseen = await this.unseenBy(actor);
    const window = pageWindow(query.page, query.limit);
    const total = await this.comments.topLevelCount(track.id, unseen);
    const rows =
      window.offset < total ? await this.comments.topLevelPage(track.id, query.sort, window, unseen, total) : [];
    return { comments: await this.dtos(rows), pagination: paginate(window, total) };
  }

  async replies(actor: Actor, commentId: string, query: ListRepliesQuery) {
    const { comment } = await this.visibleComment(actor, commentId, { deleted: true });
    const window = pageWindow(query.page, query.limit);
    // one level: a reply has no replies of its own
    if (comment.parent_id !== null) return { replies: [], pagination: paginate(window, 0) };
    const unseen = await this.unseenBy(actor);
    const total = await this.comments.replyCount(comment.id, comment.reply_count, unseen);
    const rows = window.offset < total ? await this.comments.repliesPage(comment.id, window, unseen, total) : [];
    return { replies: await this.dtos(rows), pagination: paginate(window, total) };
  }

  /**
   * At most 10 created per user per minute. The point is taken first (so concurrent requests
   * cannot all pass) and given back when the request is refused for any reason, the limit included.
   */
  async create(actor: UserActor, trackId: string, body: CreateCommentRequest) {
    return withinLimit(
      this.deps.created,
      actor.id,
      (limit) => `At most ${limit} comments a minute: try again later`,
      () => this.insert(actor, trackId, body),
    );
  }

  private async insert(actor: UserActor, trackId: string, body: CreateCommentRequest) {
    const track = await this.visibleTrack(actor, trackId);
    if (await this.deps.people.blocks(track.creator_id, actor.id))
      throw forbidden('The track’s owner has blocked you from commenting');
    if (body.timestamp > track.duration)
      throw invalidField('timestamp', `must be at most the track’s duration (${track.duration} s)`, body.timestamp);
    return this.deps.scope.transaction(async () => {
      // the track's row is held until commit: no comment lands after its comments were removed
      if (!(await this.deps.tracks.holdLive(track.id))) throw notFound('Track');
      const parentId = body.parent_id === undefined ? null : await this.topLevelParent(actor, track.id, body.parent_id);
      const id = await this.comments.insert({
        track_id: track.id,
        user_id: actor.id,
        parent_id: parentId,
        content: body.content,
        position_seconds: body.timestamp,
      });
      if (parentId) await this.comments.addReplies(parentId, 1);
      else await this.comments.addTopLevel(track.id, 1);
      await this.deps.events.record(actor, 'comment.created', {
        subject: { resource: 'comment', id },
        data: { track_id: track.id, parent_id: parentId, timestamp: body.timestamp },
      });
      return { comment: await this.dto(await this.found(id)) };
    });
  }

  /**
   * The top-level comment a reply attaches to, locked until the reply is counted: a reply to a reply
   * goes to its parent. A thread moderation withholds from the caller is, for them, no comment at all.
   */
  private async topLevelParent(actor: UserActor, trackId: string, parentId: string): Promise<string> {
    const named = await this.comments.lock(parentId);
    const parent = named?.parent_id ? await this.comments.lock(named.parent_id) : named;
    if (
      !named ||
      !parent ||
      parent.track_id !== trackId ||
      !canSeeComment(actor, named) ||
      !canSeeComment(actor, parent)
    )
      throw invalidField('parent_id', 'must be a comment of this track', parentId);
    return parent.id;
  }

  private async found(id: string): Promise<CommentRow> {
    const row = await this.comments.find(id);
    if (!row) throw notFound('Comment');
    return row;
  }

  async update(actor: UserActor, id: string, content: string) {
    const { comment } = await this.visibleComment(actor, id, { deleted: false });
    if (!canEditComment(actor, comment)) throw forbidden('Only its author can edit a comment');
    if (comment.moderation_status === 'removed') throw removedContent();
    // saving the same words again is not an edit
    if (comment.content === content) return { comment: await this.dto(comment) };
    return this.deps.scope.transaction(async () => {
      const locked = await this.comments.lock(id);
      if (!locked || locked.deleted_at !== null) throw notFound('Comment');
      await this.comments.updateContent(id, content, this.deps.clock.now());
      await this.deps.events.record(actor, 'comment.updated', {
        subject: { resource: 'comment', id },
        data: { track_id: comment.track_id },
      });
      return { comment: await this.dto(await this.found(id)) };
    });
  }

  async remove(actor: UserActor, trackId: string, id: string) {
    const track = await this.visibleTrack(actor, trackId);
    await this.deps.scope.transaction(async () => {
      const comment = await this.comments.lock(id);
      if (!comment || comment.track_id !== track.id || comment.deleted_at !== null) throw notFound('Comment');
      if (!canDeleteComment(actor, comment, track))
        throw forbidden('Only its author, the track’s owner or an admin can delete a comment');
      const kept = await this.deleteLocked(comment);
      await this.deps.events.record(actor, 'comment.deleted', {
        subject: { resource: 'comment', id },
        data: { track_id: track.id, parent_id: comment.parent_id, kept, role: deletionRole(actor, comment, track) },
      });
    });
    return { message: 'Comment deleted' };
  }

  /**
   * Deletes a comment whose row the unit of work holds. With replies it stays as a tombstone
   * (returns true); otherwise it goes, and a reply's deleted parent goes with its last reply.
   */
  private async deleteLocked(comment: CommentRow): Promise<boolean> {
    const at = this.deps.clock.now();
    if (comment.parent_id === null) {
      if (comment.reply_count > 0) {
        await this.comments.tombstone(comment.id, at);
        return true;
      }
      await this.comments.remove(comment.id);
      await this.comments.addTopLevel(comment.track_id, -1);
      return false;
    }
    const parent = await this.comments.lock(comment.parent_id);
    await this.comments.remove(comment.id);
    if (!parent) return false;
    const left = await this.comments.addReplies(parent.id, -1);
    if (left === 0 && parent.deleted_at !== null) {
      await this.comments.remove(parent.id);
      await this.comments.addTopLevel(parent.track_id, -1);
    }
    return false;
  }

  /** A deleted track's comments go with it (after its deletion commits; idempotent). */
  async forgetTrack(trackId: string): Promise<void> {
    await this.comments.removeAllOfTrack(trackId);
  }

  /** The owner's comments and replies that readers still see, for their data export. */
  async exportFor(owner: UserActor) {
    return { comments: await this.dtos(await this.comments.liveOf(owner.id)) };
  }

  /**
   * Account deletion: each of the user's comments is deleted as its author would delete it (a
   * comment with others' replies stays as an anonymous tombstone), in the deletion's unit of work.
   */
  async eraseFor(owner: UserActor) {
    return this.deps.scope.transaction(async () => {
      let removed = 0;
      for (const id of await this.comments.idsOf(owner.id)) {
        const comment = await this.comments.lock(id);
        if (!comment || comment.deleted_at !== null) continue;
        await this.deleteLocked(comment);
        removed++;
      }
      return { removed_comments: removed };
    });
  }
}
