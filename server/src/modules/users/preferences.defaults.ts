import { DEFAULT_NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type Preferences } from '@riff/contract';

export const DEFAULT_PREFERENCES: Preferences = {
  notifications: {
    email_new_follower: true,
    email_comments: true,
    email_purchases: true,
    email_product_updates: false,
    push_enabled: true,
    // every notification type in the inbox, none by mail, until the user says otherwise
    ...(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, { ...DEFAULT_NOTIFICATION_CHANNELS }])) as Record<
      (typeof NOTIFICATION_TYPES)[number],
      typeof DEFAULT_NOTIFICATION_CHANNELS
    >),
  },
  privacy: { show_activity: true, show_listening_history: true, allow_messages_from: 'everyone', do_not_sell: false },
  playback: { autoplay: true, crossfade_seconds: 0, audio_quality: 'high', normalize_volume: true },
};

type Section = keyof Preferences;
const SECTIONS: Section[] = ['notifications', 'privacy', 'playback'];

/** Stored settings over the defaults, section by section; keys the schema no longer knows are dropped. */
export function mergePreferences(stored: Record<string, unknown>, doNotSell: boolean): Preferences {
  const result = structuredClone(DEFAULT_PREFERENCES) as Record<Section, Record<string, unknown>>;
  for (const section of SECTIONS) {
    const saved = stored[section];
    if (!saved || typeof saved !== 'object') continue;
    for (const [key, value] of Object.entries(saved)) {
      if (!(key in result[section]) || typeof value !== typeof result[section][key]) continue;
      result[section][key] = isRecord(value)
        ? mergeRecord(result[section][key] as Record<string, unknown>, value)
        : value;
    }
  }
  result.privacy['do_not_sell'] = doNotSell;
  return result as unknown as Preferences;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `changes` over `base`, one level down (a notification type's channels): keys and types of `base` only. */
export function mergeRecord(base: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (key in base && typeof value === typeof base[key]) merged[key] = value;
  }
  return merged;
}
