import type * as MusicMetadata from 'music-metadata';

/**
 * music-metadata, loaded on first use: only uploads and media jobs read tags, and loading it took
 * a seventh of a second of every start.
 */
let loading: Promise<typeof MusicMetadata> | undefined;

export const musicMetadata = (): Promise<typeof MusicMetadata> => (loading ??= import('music-metadata'));
