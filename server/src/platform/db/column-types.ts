import type { ColumnType } from 'kysely';

/** Timestamps are read as Date and may be written as Date or ISO strings. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** JSON columns: written as serialized text, read parsed. */
export type Json<T> = ColumnType<T, string, string>;
