import type { NotificationSubjectType, NotificationType } from '@riff/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/column-types.js';

export interface NotificationsTable {
  id: Generated<string>;
  /** Whose inbox. */
  user_id: string;
  type: NotificationType;
  /** Who did it, newest first (likes folded into one notification name several). */
  actor_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** How many did it (the actors kept are capped; the count is not). */
  count: ColumnType<number, number | undefined, number>;
  subject_type: NotificationSubjectType | null;
  subject_id: string | null;
  /** The subject's title when it happened: a later rename does not change what was said. */
  subject_title: string | null;
  message: string;
  /** Set on a notification that the next one of its kind folds into (the likes of one track). */
  fold_key: string | null;
  /** Shown in the inbox: the recipient's preference for its type when it was made. */
  in_app: boolean;
  /** Still to be mailed by the daily digest. */
  email_due: boolean;
  /** When the first of a fold happened: the fold stays open an hour from it. */
  first_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** When it last happened (a fold moves it). */
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  read_at: Timestamp | null;
}

export type NotificationRow = Selectable<NotificationsTable>;

/** A batch of an announcement already delivered (a retried job skips it). */
export interface AnnouncementBatchesTable {
  announcement_id: string;
  /** The last account id of the batch before ('' for the first). */
  after_key: string;
  delivered_at: ColumnType<Date, Date | string | undefined, never>;
}

/** The notifications area's tables: the inbox, and the announcement batches delivered. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    notifications: NotificationsTable;
    announcement_batches: AnnouncementBatchesTable;
  }
}
