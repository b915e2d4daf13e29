import type { TrackVersionRow } from './media.repository.js';

/** A version as GET /tracks/{id}/versions lists it. */
export const toVersionDto = (row: TrackVersionRow) => ({
  id: row.id,
  version_number: row.version_number,
  format: row.format,
  duration: row.duration,
  file_size: Number(row.file_size),
  md5: row.md5,
  created_at: row.created_at.toISOString(),
  is_current: row.is_current,
});
