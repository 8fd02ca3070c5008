/**
 * Error texts that name a network or a shared resource: ports, sockets, DNS. The same codes
 * triage's log signatures know (core/triage/log-signatures-setup.ts), read here from a test's own
 * error. Pure.
 */

const CODES = /\b(EADDRINUSE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;
const PHRASES = /socket hang up|getaddrinfo|address already in use/i;

/** The network or resource code an error names ("EADDRINUSE"), or null. */
export function findNetworkSignal(error: string | undefined | null): string | null {
  if (!error) return null;
  return CODES.exec(error)?.[1] ?? PHRASES.exec(error)?.[0] ?? null;
}
