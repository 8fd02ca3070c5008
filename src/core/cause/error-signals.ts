/**
 * Error texts that name a cause: a network or a shared resource (ports, sockets, DNS: the same
 * codes triage's log signatures know, core/triage/log-signatures-setup.ts), or a time limit. Read
 * from a test's own error. Pure.
 */

const CODES = /\b(EADDRINUSE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;
const PHRASES = /socket hang up|getaddrinfo|address already in use/i;
const TIMEOUT =
  /Test timed out in \d+ ?ms|Hook timed out in \d+ ?ms|timed? ?out after \d+|exceeded timeout|Timeout of \d+ ?ms exceeded/i;

/** The network or resource code an error names ("EADDRINUSE"), or null. */
export function findNetworkSignal(error: string | undefined | null): string | null {
  if (!error) return null;
  return CODES.exec(error)?.[1] ?? PHRASES.exec(error)?.[0] ?? null;
}

/** The time limit an error says it ran into ("Test timed out in 5000ms"), or null. */
export function findTimeoutSignal(error: string | undefined | null): string | null {
  if (!error) return null;
  return TIMEOUT.exec(error)?.[0] ?? null;
}
