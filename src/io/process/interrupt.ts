/**
 * Ctrl-C and SIGTERM, handled the same by every command: the returned signal aborts, the command
 * stops what it started (its process groups, its load) and throws interruptedError (exit 130).
 * The parent going away counts too (SIGTERM to an `npx` wrapper that does not pass it on): when
 * this process is re-parented, it aborts the same way, so flakeguard never runs on alone.
 */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
const PARENT_CHECK_MS = 500;

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
  const parent = process.ppid;
  const orphan = setInterval(() => {
    if (process.ppid !== parent) controller.abort();
  }, PARENT_CHECK_MS);
  orphan.unref();
  return {
    signal: controller.signal,
    dispose: () => {
      if (!open) return;
      open = false;
      openScopes -= 1;
      clearInterval(orphan);
      for (const s of SIGNALS) process.removeListener(s, onSignal);
    },
  };
}
