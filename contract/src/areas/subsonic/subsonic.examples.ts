/** Examples of the subsonic area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, TRACK_ID, UPDATED } from '../../common/common.examples.js';

export const appPassword = {
  id: '3a7c9e1b-5d2f-4b8a-9c6e-1f0d2b4a6c8e',
  name: 'Symfonium on my phone',
  created_at: CREATED,
  last_used_at: UPDATED,
};

export const SUBSONIC_EXAMPLES: Record<string, unknown> = {
  AppPassword: appPassword,
  AppPasswordList: { app_passwords: [appPassword] },
  CreateAppPasswordRequest: { name: 'Symfonium on my phone' },
  CreatedAppPassword: { app_password: { ...appPassword, last_used_at: null }, password: 'q7Lm2XwP9sT4vB8nD3fH6jR1' },
  ExportedSubsonicRating: { item_type: 'song', item_id: TRACK_ID, rating: 4, rated_at: UPDATED },
  ExportedNowPlaying: { track_id: TRACK_ID, client: 'Symfonium', started_at: UPDATED },
};
