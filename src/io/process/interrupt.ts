/**
 * Ctrl-C and SIGTERM, handled the same by every command: the returned signal aborts, the command
 * stops what it started (its process groups, its load) and throws interruptedError (exit 130).
 */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export interface InterruptScope {
  readonly signal: AbortSignal;
  dispose(): void;
}

export function listenForInterrupt(): InterruptScope {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of SIGNALS) process.removeListener(s, onSignal);
    },
  };
}
