import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the ffmpeg binary was found: the FFMPEG_PATH setting, a directory on PATH, or the npm package. */
export type FfmpegSource = 'FFMPEG_PATH' | 'PATH' | 'package';

export interface FfmpegLocation {
  path: string;
  source: FfmpegSource;
}

export interface FfmpegLookup {
  /** FFMPEG_PATH: used as given, even when it does not exist (a wrong setting must show, not be skipped). */
  configured?: string | undefined;
  /** The PATH variable to search; none means no search. */
  pathVariable?: string | undefined;
  platform?: NodeJS.Platform;
  /** The binary shipped in @ffmpeg-installer/ffmpeg (its platform package is an optional dependency). */
  packaged?: () => string | undefined;
}

const require = createRequire(import.meta.url);

/** The path of the binary in @ffmpeg-installer's package for this platform, if it is installed. */
export function packagedFfmpeg(): string | undefined {
  try {
    const installer = require('@ffmpeg-installer/ffmpeg') as { path?: unknown };
    return typeof installer.path === 'string' && isExecutable(installer.path) ? installer.path : undefined;
  } catch {
    // the package throws (a string) on a platform it has no binary for
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(pathVariable: string, platform: NodeJS.Platform): string | undefined {
  const names = platform === 'win32' ? ['ffmpeg.exe', 'ffmpeg'] : ['ffmpeg'];
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const directory of pathVariable.split(delimiter)) {
    if (!directory) continue;
    for (const name of names) {
      const candidate = path.join(directory, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Finds ffmpeg without relying on the OS having one: FFMPEG_PATH, else `ffmpeg` on PATH, else the
 * binary from the npm package. The server and the test fixtures both use this, so they agree.
 */
export function findFfmpeg(lookup: FfmpegLookup = {}): FfmpegLocation | undefined {
  if (lookup.configured) return { path: lookup.configured, source: 'FFMPEG_PATH' };
  const found = lookup.pathVariable ? onPath(lookup.pathVariable, lookup.platform ?? process.platform) : undefined;
  if (found) return { path: found, source: 'PATH' };
  const packaged = (lookup.packaged ?? packagedFfmpeg)();
  return packaged ? { path: packaged, source: 'package' } : undefined;
}

/** ffmpeg for this process's environment; `ffmpeg` (which then fails to spawn) when there is none. */
export function ffmpegPathFrom(env: NodeJS.ProcessEnv = process.env): string {
  return findFfmpeg({ configured: env.FFMPEG_PATH, pathVariable: env.PATH })?.path ?? 'ffmpeg';
}
