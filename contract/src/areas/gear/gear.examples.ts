/** Examples of the gear area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, onePage, UPDATED, USER_ID } from '../../common/common.examples.js';
import { profile } from '../users/profile.examples.js';

const owner = profile;

const GEAR_ID = '3e8a1c5d-7b2f-4d9e-8a6c-1f3b5d7e9a2c';
const PHOTO_ID = '6a2c4e8f-1b3d-4f5a-9c7e-2d4f6a8c0e1b';
const BASE = 'https://riff.example.org/api/v1';

const photo = {
  id: PHOTO_ID,
  url: `${BASE}/gear/${GEAR_ID}/photos/${PHOTO_ID}`,
  thumbnail_url: `${BASE}/gear/${GEAR_ID}/photos/${PHOTO_ID}?size=320`,
};

export const gear = {
  id: GEAR_ID,
  user_id: USER_ID,
  category: 'synth',
  brand: 'Moog',
  model: 'Subsequent 37',
  nickname: 'The beast',
  year: 2019,
  notes: 'Every bass line on the last record',
  acquired_at: '2020-03-14',
  is_public: true,
  photos: [photo],
  track_count: 3,
  created_at: CREATED,
  updated_at: UPDATED,
};

export const GEAR_EXAMPLES: Record<string, unknown> = {
  Gear: gear,
  GearPhoto: photo,
  GearReply: { gear },
  GearPage: { gear: [gear], pagination: onePage(1) },
  TrackGear: { gear: [gear] },
  CreateGearRequest: {
    category: 'synth',
    brand: 'Moog',
    model: 'Subsequent 37',
    nickname: 'The beast',
    year: 2019,
    acquired_at: '2020-03-14',
    is_public: true,
  },
  UpdateGearRequest: { notes: 'Every bass line on the last record', is_public: false },
  SetTrackGearRequest: { gear_ids: [GEAR_ID] },
  PopularGear: { brand: 'Moog', model: 'Subsequent 37', category: 'synth', owners: 42 },
  PopularGearList: { items: [{ brand: 'Moog', model: 'Subsequent 37', category: 'synth', owners: 42 }] },
  GearOwnerPage: { users: [owner], pagination: onePage(1) },
  AddGearPhotoRequest: { file: 'front.jpg' },
};
