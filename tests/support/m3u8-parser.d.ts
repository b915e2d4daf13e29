// m3u8-parser (video.js's playlist parser) ships no type declarations: the part the tests read.
declare module 'm3u8-parser' {
  export interface ParsedSegment {
    uri: string;
    duration: number;
    map?: { uri: string };
  }
  export interface ParsedManifest {
    targetDuration?: number;
    playlistType?: string;
    endList?: boolean;
    independentSegments?: boolean;
    playlists?: { uri: string; attributes: Record<string, unknown> }[];
    segments: ParsedSegment[];
  }
  export class Parser {
    manifest: ParsedManifest;
    push(chunk: string): void;
    end(): void;
  }
}
