import type { SubsonicRatedItemType } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface AppPasswordsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** The password sealed with the `app-password` key (SecretBox): token sign-in needs it back. */
  password_sealed: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

/** The Subsonic app that last saved a user's play queue, and the queue's version it left (getPlayQueue's changedBy). */
export interface SubsonicQueueClientsTable {
  user_id: string;
  client: string;
  queue_version: number;
  saved_at: Timestamp;
}

/** What a Subsonic rating is about: the id an app rated is a track's, an album's (UUID v5) or a creator's. */
export type RatedItemType = SubsonicRatedItemType;

/** A user's Subsonic rating (setRating): Riff itself has no ratings. */
export interface SubsonicRatingsTable {
  user_id: string;
  item_id: string;
  item_type: RatedItemType;
  /** 1–5 (a CHECK); setRating 0 deletes the row. */
  rating: number;
  rated_at: UpdatedAt;
}

/** What a user's player app last announced as playing (scrobble with submission=false): one row per user. */
export interface SubsonicNowPlayingTable {
  user_id: string;
  track_id: string;
  /** The app's name (`c`), shown as playerName. */
  client: string;
  started_at: Timestamp;
  /** When followers stop seeing it: the track's end and a margin. */
  expires_at: Timestamp;
}

/** The subsonic area's tables: app passwords, who saved the play queue last, ratings and now playing. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    app_passwords: AppPasswordsTable;
    subsonic_queue_clients: SubsonicQueueClientsTable;
    subsonic_ratings: SubsonicRatingsTable;
    subsonic_now_playing: SubsonicNowPlayingTable;
  }
}
