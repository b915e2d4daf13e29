/** The status and error code of a refused call. */
export function errorOf(reply: { status: number; body: unknown }): [number, string] {
  return [reply.status, (reply.body as { error: { code: string } }).error.code];
}
