import type { GearCategory } from '@riff/contract';
import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface GearItemsTable {
  id: Generated<string>;
  user_id: string;
  category: GearCategory;
  brand: string;
  model: string;
  nickname: string | null;
  year: number | null;
  notes: string | null;
  /** A date, YYYY-MM-DD (read as text). */
  acquired_at: string | null;
  is_public: Generated<boolean>;
  /** gear_model_key(brand, model): the model in its normal form, for popular and owners. */
  model_key: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface GearPhotosTable {
  id: Generated<string>;
  gear_id: string;
  large_key: string;
  small_key: string;
  content_type: string;
  created_at: CreatedAt;
}

export interface TrackGearTable {
  track_id: string;
  gear_id: string;
  created_at: CreatedAt;
}

export interface GearModelsTable {
  model_key: string;
  brand: string;
  model: string;
  category: GearCategory;
  /** Counted owners (gear_model_owners.counted) holding it as a public item. */
  owners: Generated<number>;
}

export interface GearModelOwnersTable {
  model_key: string;
  user_id: string;
  items: number;
  /** False while the account is deactivated or banned. */
  counted: Generated<boolean>;
  since: Generated<Timestamp>;
}

export type GearRow = Selectable<GearItemsTable>;
export type GearPhotoRow = Selectable<GearPhotosTable>;

declare module '../../platform/db/database.schema.js' {
  interface Database {
    gear_items: GearItemsTable;
    gear_photos: GearPhotosTable;
    track_gear: TrackGearTable;
    gear_models: GearModelsTable;
    gear_model_owners: GearModelOwnersTable;
  }
}
