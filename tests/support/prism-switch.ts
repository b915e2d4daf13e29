/**
 * Whether startTestServer puts Prism (`prism proxy --errors openapi.json`) in front of the server:
 * on unless RIFF_TEST_PRISM_PROXY=0, in the environment or in the env given to startTestServer.
 * Through it every reply is checked against openapi.json: tests/support/http.ts fails the request
 * on a violation, and close() fails on any violation seen (whatever client sent the request).
 */
export function prismProxyEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.RIFF_TEST_PRISM_PROXY !== '0';
}
