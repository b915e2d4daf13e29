import type { UsersRepository } from './users.repository.js';

export function slugify(username: string): string {
  const slug = username
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.length > 0 ? slug : 'user';
}

/** The username's slug, with -2, -3, … when another user has it. */
export async function uniqueSlug(users: UsersRepository, username: string, exceptUserId?: string): Promise<string> {
  const base = slugify(username);
  const taken = new Set(await users.slugsLike(base, exceptUserId));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
