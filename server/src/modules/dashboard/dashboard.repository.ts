import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { activeUserSql } from '../users/people-sql.js';

/** A half-open time range [from, until). */
export interface Window {
  from: Date;
  until: Date;
}

export interface WindowCounts {
  tracks_played: number;
  favorites: number;
  messages_sent: number;
  active_friends: number;
}

/** User-facing actions of one's own audit log that the dashboard shows (not sign-ins and other security records). */
const SHOWN_RESOURCES = ['track', 'comment', 'playlist', 'order', 'product', 'queue_session', 'api_key'];
/** Entries the service records in one's log for what it did itself (a stream ready after an upload): not the user's activity. */
const SERVICE_ACTIONS = ['track.processed'];

/** Read-only SQL over other areas' tables: the dashboard is a view, it owns no data. */
export class DashboardRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The four counts of one window, in one statement. */
  async counts(userId: string, window: Window): Promise<WindowCounts> {
    const { from, until } = window;
    const { rows } = await sql<Record<keyof WindowCounts, string>>`
      select
        (select count(*) from listening_history
          where user_id = ${userId} and played_at >= ${from} and played_at < ${until}) as tracks_played,
        (select count(*) from playlist_tracks pt join playlists p on p.id = pt.playlist_id
          where p.user_id = ${userId} and p.is_default_favorites and pt.added_at >= ${from} and pt.added_at < ${until}) as favorites,
        (select count(*) from queue_session_messages
          where user_id = ${userId} and created_at >= ${from} and created_at < ${until}) as messages_sent,
        (select count(*) from follows mine
          join follows theirs on theirs.follower_id = mine.followee_id and theirs.followee_id = mine.follower_id
          where mine.follower_id = ${userId}
            and exists (select 1 from listening_history h
              where h.user_id = mine.followee_id and h.played_at >= ${from} and h.played_at < ${until})) as active_friends
    `.execute(this.db);
    const row = rows[0]!;
    return {
      tracks_played: Number(row.tracks_played),
      favorites: Number(row.favorites),
      messages_sent: Number(row.messages_sent),
      active_friends: Number(row.active_friends),
    };
  }

  ownActivity(userId: string, limit: number) {
    return this.db
      .selectFrom('audit_logs')
      .select(['id', 'action', 'resource', 'resource_id', 'metadata', 'created_at'])
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('resource', 'in', SHOWN_RESOURCES), eb('action', '=', 'user.followed')]))
      .where('action', 'not in', SERVICE_ACTIONS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  newFollowers(userId: string, limit: number) {
    return (
      this.db
        .selectFrom('follows')
        .innerJoin('users', 'users.id', 'follows.follower_id')
        .select(['follows.follower_id', 'users.username', 'follows.created_at'])
        .where('follows.followee_id', '=', userId)
        // a banned or deactivated follower's profile is hidden from everyone: their follow is not news
        .where(activeUserSql('follows.follower_id'))
        .orderBy('follows.created_at', 'desc')
        .limit(limit)
        .execute()
    );
  }

  /** The user's own tracks that are in the library: not deleted, past their upload. */
  private ownTracks(userId: string) {
    return this.db
      .selectFrom('tracks')
      .where('creator_id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('status', '!=', 'uploading');
  }

  library(userId: string, limit: number) {
    return this.ownTracks(userId)
      .select(['id', 'title', 'artist', 'cover_art_path', 'created_at', 'duration', 'like_count', 'play_count'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async libraryCount(userId: string): Promise<number> {
    const row = await this.ownTracks(userId)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
