/**
 * Ctrl-C and SIGTERM, handled the same by every command: the returned signal aborts, the command
 * stops what it started (its process groups, its load) and throws interruptedError (exit 130).
 */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export interface InterruptScope {
  readonly signal: AbortSignal;
  dispose(): void;
}

let openScopes = 0;

/**
 * True while a command listens (its scope will stop its work and exit 130). The CLI's fallback
 * asks this, not process.listenerCount: a library's listener (execa's signal-exit) is no promise
 * to stop, and two fallbacks that each defer to the other's listener ignored Ctrl-C.
 */
export function isInterruptHandled(): boolean {
  return openScopes > 0;
}

export function listenForInterrupt(): InterruptScope {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  for (const s of SIGNALS) process.on(s, onSignal);
  openScopes += 1;
  let open = true;
  return {
    signal: controller.signal,
    dispose: () => {
      if (!open) return;
      open = false;
      openScopes -= 1;
      for (const s of SIGNALS) process.removeListener(s, onSignal);
    },
  };
}
