/**
 * music-metadata, loaded on first use: only uploads and media jobs read tags, and loading it took
 * a seventh of a second of every start.
 */
let loading: Promise<typeof import('music-metadata')> | undefined;

export const musicMetadata = (): Promise<typeof import('music-metadata')> => (loading ??= import('music-metadata'));
