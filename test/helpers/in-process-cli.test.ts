import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './in-process-cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-inproc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runCliInProcess', () => {
  it('captures stdout, stderr and the exit code, and puts the process state back', async () => {
    const state = () => ({
      cwd: process.cwd(),
      exitCode: process.exitCode,
      noColor: process.env['NO_COLOR'],
      ci: process.env['CI'],
      stdout: process.stdout.write,
      stderr: process.stderr.write,
      sigint: process.listeners('SIGINT').length,
      sigterm: process.listeners('SIGTERM').length,
    });
    const before = state();
    const bad = await runCliInProcess(dir, ['gate', '--tries', 'five'], { FLAKEGUARD_TEST_MARK: 'x' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      'flakeguard: --tries "five" must be a whole number from 1 to 1000; see flakeguard gate --help',
    );
    const version = await runCliInProcess(dir, ['--version']);
    expect([version.exitCode, version.stderr]).toEqual([0, '']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    expect(state()).toEqual(before);
    expect(process.env['FLAKEGUARD_TEST_MARK']).toBeUndefined();
  });

  it('runs calls given together one at a time', async () => {
    const runs = await Promise.all([runCliInProcess(dir, ['init', '--no-such-flag']), runCliInProcess(dir, ['gaet'])]);
    expect(runs.map((r) => r.exitCode)).toEqual([2, 2]);
    expect(runs[1]?.stderr).toContain('unknown command "gaet"');
    expect(runs[0]?.stdout).toBe('');
  });
});
