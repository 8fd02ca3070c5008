/**
 * Errors that flakeguard knows how to explain. The CLI prints `message` without a stack and exits
 * with `exitCode`; anything else is a bug and is re-thrown with its stack.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'DURATION_INVALID'
  | 'ALLOWANCE_INVALID'
  | 'USAGE'
  | 'GIT'
  | 'INPUT_UNREADABLE'
  | 'STORE_DAMAGED'
  | 'STORE_UNWRITABLE'
  | 'VITEST'
  | 'INTERRUPTED';

export class FlakeguardError extends Error {
  readonly code: ErrorCode;
  /** 2 = could not run, 130 = interrupted. */
  readonly exitCode: 2 | 130;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; exitCode?: 2 | 130 } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FlakeguardError';
    this.code = code;
    this.exitCode = options.exitCode ?? 2;
  }
}

export function isFlakeguardError(value: unknown): value is FlakeguardError {
  return value instanceof FlakeguardError;
}

/** The one interrupted error (Ctrl-C or SIGTERM): exit 130 after everything started was stopped. */
export function interruptedError(what: string): FlakeguardError {
  return new FlakeguardError('INTERRUPTED', `interrupted; ${what} stopped`, { exitCode: 130 });
}
