/**
 * The packed tarball as a user installs it: `npm pack` of this repository into a scratch folder,
 * and commands run there with a clean environment (no Vitest, GitHub or npm variables leaking in
 * from the suite that runs the test).
 */
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { REPO_ROOT } from './fixture.js';
import { cliKind, countProcess } from './process-budget.js';

export const packedEnv = (extra: Record<string, string> = {}): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && !k.startsWith('GITHUB_') && !k.startsWith('npm_')) out[k] = v;
  return {
    ...out,
    NO_COLOR: '1',
    CI: 'true',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
    ...extra,
  };
};

export async function sh(cwd: string, file: string, args: readonly string[]) {
  // The process budget: a Vitest run or a flakeguard command (a gate or another), however started
  // (node, the bin, pnpm exec); tools (npm, git, npx) are not counted, as fixture.ts's git is not.
  const words = [file, ...args];
  const at = words.findIndex((w) => /(?:^|\/)(?:vitest(?:\.mjs)?|flakeguard)$/.test(w));
  const command = words[at] ?? '';
  if (at >= 0) countProcess(command.includes('vitest') ? 'vitest' : cliKind(words.slice(at + 1)));
  const r = await execa(file, args, {
    cwd,
    env: packedEnv(),
    extendEnv: false,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: 300_000,
  });
  return { exitCode: r.exitCode ?? 1, all: String(r.all), stdout: String(r.stdout) };
}

/** `npm pack` into `scratch`; returns the tarball's path. */
export async function packTarball(scratch: string): Promise<string> {
  const packed = await sh(REPO_ROOT, 'npm', ['pack', '--silent', '--pack-destination', scratch]);
  expect(packed.exitCode, packed.all).toBe(0);
  return path.join(scratch, packed.all.trim().split('\n').pop() ?? '');
}
