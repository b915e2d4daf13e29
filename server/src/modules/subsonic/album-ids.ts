const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is written as a UUID (an id apps send back that PostgreSQL can compare with one).
 * Every id of the catalogue is one: users' and tracks' own, and albums' (UUID v5, made by the
 * database beside the tracks: the tracks area's track_albums).
 */
export const isUuid = (value: string): boolean => UUID.test(value);
