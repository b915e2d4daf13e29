import type { UsersRepository } from './users.repository.js';

/** Lower-case letters and digits joined by dashes; `fallback` when nothing of the text is left. */
export function slugify(text: string, fallback = 'user'): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.length > 0 ? slug : fallback;
}

/** `base` when it is free, else the first of base-2, base-3, … that is. */
export function firstFreeSlug(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The username's slug, with -2, -3, … when another user has it. */
export async function uniqueSlug(users: UsersRepository, username: string, exceptUserId?: string): Promise<string> {
  const base = slugify(username);
  return firstFreeSlug(base, await users.slugsLike(base, exceptUserId));
}
