import type { Gear, GearPhoto } from '@riff/contract';
import type { GearPhotoRow, GearRow } from './gear.tables.js';

/** The URL path of a photo as GET /gear/{id}/photos/{photoId} serves it. */
export const gearPhotoPath = (gearId: string, photoId: string) => `/api/v1/gear/${gearId}/photos/${photoId}`;

export function toGearPhotoDto(row: GearPhotoRow, publicBaseUrl: string): GearPhoto {
  const url = `${publicBaseUrl}${gearPhotoPath(row.gear_id, row.id)}`;
  return { id: row.id, url, thumbnail_url: `${url}?size=320` };
}

export function toGearDto(row: GearRow, photos: GearPhotoRow[], trackCount: number, publicBaseUrl: string): Gear {
  return {
    id: row.id,
    user_id: row.user_id,
    category: row.category,
    brand: row.brand,
    model: row.model,
    nickname: row.nickname,
    year: row.year,
    notes: row.notes,
    acquired_at: row.acquired_at,
    is_public: row.is_public,
    photos: photos.map((photo) => toGearPhotoDto(photo, publicBaseUrl)),
    track_count: trackCount,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
