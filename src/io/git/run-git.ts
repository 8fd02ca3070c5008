/**
 * The one way flakeguard runs git: `git <args>` in `cwd`, never rejecting (callers read `ok`), one
 * timeout, stdin closed unless `input` is given, output as a Buffer when asked for.
 *
 * node:child_process rather than execa (the project's usual process library): the reporter calls
 * git in every Vitest run, and loading execa there cost about 16 MiB of peak memory and 100 ms of
 * CPU in Vitest's main process (bench/reporter-overhead.mjs) for two short git calls.
 */
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 30_000;

export interface GitResult<T extends string | Buffer = string> {
  readonly ok: boolean;
  readonly out: T;
  readonly err: string;
}

interface GitOptions {
  readonly input?: string;
  /** Keep a trailing newline of stdout (file contents); trimmed by default. */
  readonly keepFinalNewline?: boolean;
  /** Never ask for credentials (a command that may reach the remote). */
  readonly noPrompt?: boolean;
}

const NO_PROMPT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' };

function spawnGit(
  cwd: string,
  args: readonly string[],
  input: string | undefined,
  done: (error: Error | null, out: Buffer, err: string) => void,
  noPrompt = false,
): void {
  const child = execFile(
    'git',
    args,
    {
      cwd,
      ...(noPrompt ? { env: { ...process.env, ...NO_PROMPT_ENV } } : {}),
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 1024 * 1024 * 1024,
      encoding: 'buffer',
      windowsHide: true,
    },
    (error, stdout, stderr) => done(error, stdout, stderr.toString('utf8')),
  );
  child.on('error', () => undefined);
  if (input !== undefined) child.stdin?.end(input);
  else child.stdin?.end();
}

export function runGit(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    spawnGit(
      cwd,
      args,
      options.input,
      (error, out, err) => {
        const text = out.toString('utf8');
        resolve({ ok: error === null, out: options.keepFinalNewline ? text : text.replace(/\r?\n$/, ''), err });
      },
      options.noPrompt,
    );
  });
}

export function runGitBuffer(cwd: string, args: readonly string[], input?: string): Promise<GitResult<Buffer>> {
  return new Promise((resolve) =>
    spawnGit(cwd, args, input, (error, out, err) => resolve({ ok: error === null, out, err })),
  );
}
