/**
 * Two templates that match some of the same URLs in crossed ways, e.g. /tracks/quota/{id} and
 * /tracks/{id}/stream: each has a parameter where the other has a literal segment.
 */
function ambiguousWith(path: string, other: string): boolean {
  const a = path.split('/');
  const b = other.split('/');
  if (a.length !== b.length) return false;
  const isParam = (segment: string) => segment.startsWith('{');
  if (!a.every((segment, index) => segment === b[index] || isParam(segment) || isParam(b[index]!))) return false;
  return (
    a.some((segment, index) => isParam(segment) && !isParam(b[index]!)) &&
    b.some((segment, index) => isParam(segment) && !isParam(a[index]!))
  );
}

/**
 * Paths such as /users/by-username/{username} and /users/{id}/follow stay as clients know them,
 * though their templates overlap. Each such operation says how they are told apart (Redocly's no-ambiguous-paths findings for exactly these
 * pairs are listed in .redocly.lint-ignore.yaml, so a new one still warns).
 */
export function noteAmbiguousPaths(paths: Record<string, Record<string, { description?: string }>>): void {
  const all = Object.keys(paths);
  for (const path of all) {
    const others = all.filter((other) => ambiguousWith(path, other));
    if (others.length === 0) continue;
    const note =
      `Path note: as templates, this path and ${others.map((other) => `\`${other}\``).join(', ')} match some of the same URLs ` +
      '(both are kept for the clients that use them). No valid request is ambiguous: an {id} is a UUID (or me), never one of the literal ' +
      'segments, and the server tries the path with the literal segment first.';
    for (const operation of Object.values(paths[path]!))
      operation.description = [operation.description, note].filter(Boolean).join('\n\n');
  }
}
