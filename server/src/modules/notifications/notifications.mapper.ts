import { NOTIFICATION_ACTORS_SHOWN, type ExportedNotification, type Notification, type Profile } from '@riff/contract';
import type { NotificationRow } from './notifications.tables.js';

export const subjectKey = (type: string, id: string) => `${type}:${id}`;

/**
 * A notification as its reader sees it: its actors' profiles as the reader sees them (a deleted
 * or deactivated account is left out), and its subject only while the reader may still see it.
 */
export function toNotification(
  row: NotificationRow,
  profiles: ReadonlyMap<string, Profile>,
  visible: ReadonlySet<string>,
): Notification {
  // a fold names up to three of those who did it; a single act names its actor only
  const actors =
    row.count > 1 ? row.actor_ids.flatMap((id) => profiles.get(id) ?? []).slice(0, NOTIFICATION_ACTORS_SHOWN) : [];
  const newest = row.actor_ids[0];
  const subject =
    row.subject_type && row.subject_id && visible.has(subjectKey(row.subject_type, row.subject_id))
      ? { type: row.subject_type, id: row.subject_id, title: row.subject_title ?? '' }
      : null;
  return {
    id: row.id,
    type: row.type,
    actor: (newest && profiles.get(newest)) || null,
    actors,
    count: row.count,
    subject,
    message: row.message,
    created_at: row.created_at.toISOString(),
    read_at: row.read_at?.toISOString() ?? null,
  };
}

/** A notification as the account export holds it: as it was said, its actors by id (erased ones are gone already). */
export function toExportedNotification(row: NotificationRow): ExportedNotification {
  return {
    id: row.id,
    type: row.type,
    actor_ids: row.actor_ids,
    count: row.count,
    subject:
      row.subject_type && row.subject_id
        ? { type: row.subject_type, id: row.subject_id, title: row.subject_title ?? '' }
        : null,
    message: row.message,
    created_at: row.created_at.toISOString(),
    read_at: row.read_at?.toISOString() ?? null,
    in_app: row.in_app,
  };
}
