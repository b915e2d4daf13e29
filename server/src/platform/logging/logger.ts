import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Query values that are credentials: tokens, codes, keys and secrets, and the Subsonic interface's
 * `apiKey`, `p` (the password, clear or enc:) and `t` (md5 of the password and salt).
 */
const SECRET_QUERY = /([?&](?:token|code|key|secret|apikey|p|t)=)[^&]*/gi;

/**
 * Logs to stdout asynchronously: a line is handed to the kernel without blocking the request,
 * and lines logged while a write is in flight go out together (one write per burst instead of
 * one per line: the synchronous write was a fifth of the CPU on the read path). pino flushes
 * what is left when the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level }, destination ?? pino.destination({ dest: 1, sync: false }));
}

/** Token-bearing query values (e.g. ?token= on verify-email and stream URLs, Subsonic's p) never reach a log line. */
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** What a log line says about a request: never its headers (credentials), its URL without secrets. */
export function requestFields(req: {
  id: string;
  method?: string | undefined;
  url?: string | undefined;
  headers: { 'user-agent'?: string | undefined };
  socket: { remoteAddress?: string | undefined };
}) {
  return {
    id: req.id,
    method: req.method,
    url: redactUrl(req.url ?? ''),
    remoteAddress: req.socket.remoteAddress,
    userAgent: req.headers['user-agent'],
  };
}
